import JuiceInfrastructure

/// The Mustache templates of Juice's pages. User data is only rendered with `{{ }}` (escaped); the
/// triple-brace `{{{button}}}` takes HTML built by ``AppleIDButton`` from validated values.
enum PageTemplates {
    static let head =
        PageTemplateLibrary.documentStart + """
            <meta name="color-scheme" content="light">
            <title>{{title}} · Juice</title>
            <style>
            body{font-family:-apple-system,BlinkMacSystemFont,"SF Pro Text","Helvetica Neue","PingFang SC",Helvetica,Arial,sans-serif;background:#fbf7ef;color:#1d1d1f;margin:0}
            header{text-align:center;padding:2rem 1rem 0}
            header .brand{font-size:2rem;font-weight:700;color:#1d1d1f;text-decoration:none;letter-spacing:-.02em}
            header .brand span{color:#e8590c}
            header p{margin:.25rem 0 0;color:#515154}
            main{max-width:26rem;margin:1.5rem auto 3rem;background:#fff;border-radius:18px;padding:2rem;box-shadow:0 2px 14px rgba(0,0,0,.08)}
            h1{font-size:1.5rem;font-weight:600;text-align:center;margin:0 0 1.25rem}
            label{display:block;margin:.9rem 0 .3rem;font-weight:500}
            input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.7rem;border:1px solid #86868b;border-radius:10px;font-size:1rem}
            .hint{color:#515154;font-size:.875rem;margin:.3rem 0 0}
            button{font:inherit;cursor:pointer}
            .primary{display:block;width:100%;margin-top:1.25rem;padding:.75rem;border-radius:10px;border:0;background:#e8590c;color:#fff;font-size:1rem;font-weight:600}
            .secondary{display:block;width:100%;margin-top:.75rem;padding:.7rem;border-radius:10px;border:1px solid #1d1d1f;background:#fff;color:#1d1d1f;font-size:1rem}
            .danger{border-color:#b00020;color:#b00020}
            .divider{display:flex;align-items:center;gap:.75rem;color:#515154;margin:1.25rem 0 .5rem}
            .divider::before,.divider::after{content:"";flex:1;border-top:1px solid #d2d2d7}
            .apple{display:flex;justify-content:center}
            .switch{text-align:center;margin:1rem 0 0;color:#515154}
            a{color:#0058b9}
            a:focus-visible,input:focus-visible,button:focus-visible{outline:3px solid #0071e3;outline-offset:2px}
            .notice{background:#eaf6ec;color:#1b5e20;border-radius:10px;padding:.75rem;margin:0 0 1rem}
            .error{background:#fdecee;color:#b00020;border-radius:10px;padding:.75rem;margin:0 0 1rem}
            dl{margin:0}
            dl div{display:flex;justify-content:space-between;gap:1rem;padding:.6rem 0;border-bottom:1px solid #e5e5ea}
            dt{font-weight:500;color:#515154}
            dd{margin:0;text-align:right;word-break:break-all}
            .badge{display:inline-block;font-size:.75rem;background:#eef3fb;color:#0058b9;border-radius:6px;padding:.1rem .4rem;margin-left:.3rem}
            .muted{color:#515154}
            .confirm{display:flex;gap:.5rem;align-items:flex-start;margin-top:1rem;font-weight:400}
            section{margin-top:1.5rem}
            code{word-break:break-all}
            h2{font-size:1.1rem;margin:0 0 .5rem}
            .sessions{list-style:none;padding:0;margin:0}
            .sessions li{display:flex;flex-direction:column;gap:.2rem;padding:.6rem 0;border-bottom:1px solid #e5e5ea}
            .sessions form{margin:0}
            .link{background:none;border:0;padding:0;color:#0058b9;text-decoration:underline}
            .inline{display:flex;gap:.5rem;align-items:center;margin:0}
            .inline input[type=text]{flex:1;padding:.4rem}
            .offer{background:#eef3fb;border-radius:10px;padding:.75rem;margin:0 0 1rem}
            .offer p{margin:0}
            [hidden]{display:none !important}
            \(AppleIDButton.stylesheet)
            </style>
            </head>
            <body>
            <header><a class="brand" href="/">Juice<span>.</span></a><p>{{t.tagline}}</p></header>
            <main>
            """

    static let foot = """
        </main>
        </body>
        </html>
        """

    static let messages = """
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        """

    static let login = """
        {{> head}}
        <h1>{{t.login_title}}</h1>
        {{> messages}}
        <form method="post" action="/signin">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="username">{{t.username}}</label>
        <input type="text" id="username" name="username" value="{{username}}" autocomplete="username webauthn" autocapitalize="none" spellcheck="false" required{{#error}} aria-describedby="form-error" aria-invalid="true"{{/error}}>
        <label for="password">{{t.password}}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required>
        <button type="submit" class="primary">{{t.sign_in}}</button>
        </form>
        <button type="button" class="secondary" id="passkey-sign-in" hidden>{{t.sign_in_with_passkey}}</button>
        <p class="error" role="alert" id="passkey-error" data-message="{{t.passkey_sign_in_failed}}" data-cancelled="{{t.passkey_cancelled}}" hidden></p>
        <div class="divider">{{t.or}}</div>
        <div class="apple">{{{button}}}</div>
        <p class="error" role="alert" id="apple-popup-error" data-message="{{t.apple_popup_failed}}" hidden></p>
        <p class="switch">{{t.new_here}} <a href="/signup">{{t.create_account}}</a></p>
        {{#apple_script}}<script src="{{apple_script}}"></script>
        \(AppleJSScript.element){{/apple_script}}
        \(PasskeyScripts.loginElement)
        {{> foot}}
        """

    static let signup = """
        {{> head}}
        <h1>{{t.signup_title}}</h1>
        {{> messages}}
        <form method="post" action="/signup">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="username">{{t.username}}</label>
        <input type="text" id="username" name="username" value="{{username}}" autocomplete="username" autocapitalize="none" spellcheck="false" minlength="3" maxlength="64" required>
        <label for="password">{{t.password}}</label>
        <input type="password" id="password" name="password" autocomplete="new-password" minlength="8" required aria-describedby="password-hint password-strength">
        <p class="hint" id="password-hint">{{t.password_hint}}</p>
        <p class="hint" id="password-strength" aria-live="polite" data-short="{{t.strength_short}}" data-username="{{t.strength_username}}" data-repetitive="{{t.strength_repetitive}}" data-sequential="{{t.strength_sequential}}" data-ok="{{t.strength_ok}}"></p>
        <button type="submit" class="primary">{{t.sign_up}}</button>
        </form>
        <form id="passkey-signup-form" hidden>
        <div class="divider">{{t.or}}</div>
        <label for="passkey-username">{{t.username}}</label>
        <input type="text" id="passkey-username" name="passkey-username" autocomplete="username" autocapitalize="none" spellcheck="false" minlength="3" maxlength="64" required aria-describedby="passkey-signup-hint">
        <p class="hint" id="passkey-signup-hint">{{t.passkey_signup_hint}}</p>
        <button type="submit" class="secondary" id="create-with-passkey">{{t.signup_with_passkey}}</button>
        <p class="error" role="alert" id="passkey-signup-error" data-message="{{t.passkey_signup_failed}}" data-cancelled="{{t.passkey_cancelled}}" hidden></p>
        </form>
        <div class="divider">{{t.or}}</div>
        <div class="apple">{{{button}}}</div>
        <p class="switch">{{t.have_account}} <a href="/">{{t.back_to_sign_in}}</a></p>
        \(PasswordStrengthScript.element)
        \(PasskeyScripts.signUpElement)
        {{> foot}}
        """

    static let account = """
        {{> head}}
        <h1>{{t.account_title}}</h1>
        {{> messages}}
        {{#passkey_offer}}<section id="passkey-offer" class="offer" aria-labelledby="passkey-offer-text" hidden>
        <p id="passkey-offer-text">{{t.passkey_offer}}</p>
        <button type="button" class="primary" id="offer-add-passkey">{{t.add_passkey}}</button>
        <form method="post" action="/account/passkeys/offer/dismiss"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="link" id="dismiss-passkey-offer">{{t.not_now}}</button></form>
        </section>{{/passkey_offer}}
        <dl>
        <div><dt>{{t.user_identifier}}</dt><dd><code id="user-identifier">{{user_identifier}}</code></dd></div>
        <div><dt>{{t.given_name}}</dt><dd id="given-name">{{given_name}}</dd></div>
        <div><dt>{{t.family_name}}</dt><dd id="family-name">{{family_name}}</dd></div>
        <div><dt>{{t.email}}</dt><dd id="email">{{#email}}{{email}}{{#private_email}}<span class="badge">{{t.private_relay}}</span>{{/private_email}}{{/email}}{{^email}}<span class="muted">{{t.not_shared}}</span>{{/email}}</dd></div>
        {{#username}}<div><dt>{{t.username}}</dt><dd id="username">{{username}}</dd></div>{{/username}}
        <div><dt>{{t.apple_id}}</dt><dd id="apple-id">{{#apple_linked}}{{t.apple_linked}}{{/apple_linked}}{{^apple_linked}}<span class="muted">—</span>{{/apple_linked}}</dd></div>
        </dl>
        {{^apple_linked}}
        <section aria-label="{{t.apple_id}}">
        <p class="muted">{{t.apple_not_linked}}</p>
        <div class="apple">{{{button}}}</div>
        </section>
        {{/apple_linked}}
        <p class="switch"><a href="/account/password" id="password-link">{{#username}}{{t.change_password}}{{/username}}{{^username}}{{t.add_password}}{{/username}}</a></p>
        <section id="passkeys" aria-labelledby="passkeys-heading" data-rp-id="{{passkey_rp_id}}"{{#passkey_user_id}} data-user-id="{{passkey_user_id}}" data-credential-ids="{{passkey_ids}}"{{/passkey_user_id}}{{#removed_passkey}} data-removed-credential="{{removed_passkey}}"{{/removed_passkey}}{{#passkey_upgrade}} data-upgrade="offered"{{/passkey_upgrade}}>
        <h2 id="passkeys-heading">{{t.passkeys_title}}</h2>
        {{^passkeys}}<p class="muted" id="no-passkeys">{{t.no_passkeys}}</p>{{/passkeys}}
        <ul class="sessions">
        {{#passkeys}}<li data-passkey="{{id}}"><span class="passkey-name">{{name}}</span> <span class="passkey-provider muted">{{provider}}</span>
        <span class="muted">{{t.passkey_added}} <time datetime="{{created}}">{{created_text}}</time> · {{#last_used}}{{t.passkey_last_used}} <time datetime="{{last_used}}">{{last_used_text}}</time>{{/last_used}}{{^last_used}}{{t.passkey_never_used}}{{/last_used}}</span>
        <form method="post" action="/account/passkeys/rename" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}"><input type="text" name="name" value="{{name}}" maxlength="64" required aria-label="{{t.passkey_name}}"><button type="submit" class="link">{{t.rename_passkey}}</button></form>
        <form method="post" action="/account/passkeys/remove"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}"><button type="submit" class="link">{{t.remove_passkey}}</button></form></li>
        {{/passkeys}}
        </ul>
        <p class="error" role="alert" id="passkey-error" data-message="{{t.passkey_add_failed}}" data-cancelled="{{t.passkey_cancelled}}" data-exists="{{t.passkey_exists}}" hidden></p>
        <form id="add-passkey-form" hidden>
        <label for="passkey-name">{{t.passkey_name}}</label>
        <input type="text" id="passkey-name" maxlength="64" placeholder="{{t.passkey_name_hint}}">
        <button type="submit" class="secondary" id="add-passkey">{{t.add_passkey}}</button>
        </form>
        </section>
        <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">{{t.sessions_title}}</h2>
        <ul class="sessions">
        {{#sessions}}<li data-session="{{id}}"><span>{{method}}{{#current}} <span class="badge">{{t.this_session}}</span>{{/current}}</span>
        <span class="muted">{{t.session_started}} <time datetime="{{created}}">{{created_text}}</time>{{#last_seen}} · {{t.session_last_seen}} <time datetime="{{last_seen}}">{{last_seen_text}}</time>{{/last_seen}}</span>
        {{^current}}<form method="post" action="/account/sessions/end"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="session" value="{{id}}"><button type="submit" class="link">{{t.end_session}}</button></form>{{/current}}</li>
        {{/sessions}}
        </ul>
        {{#has_other_sessions}}<form method="post" action="/account/sessions/end-others">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="secondary" id="end-other-sessions">{{t.end_other_sessions}}</button>
        </form>{{/has_other_sessions}}
        </section>
        <form method="post" action="/signout">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="secondary" id="sign-out">{{t.sign_out}}</button>
        </form>
        <section aria-labelledby="delete-heading">
        <form method="post" action="/account/delete">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label class="confirm"><input type="checkbox" name="confirm" value="yes" required> <span id="delete-heading">{{t.delete_confirm}}</span></label>
        <button type="submit" class="secondary danger">{{t.delete_account}}</button>
        </form>
        </section>
        \(PasskeyScripts.accountElement)
        {{> foot}}
        """

    static let password = """
        {{> head}}
        <h1>{{#has_password}}{{t.change_password}}{{/has_password}}{{^has_password}}{{t.add_password}}{{/has_password}}</h1>
        {{> messages}}
        <form method="post" action="/account/password">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#has_password}}
        <input type="text" id="username" name="username" value="{{username}}" autocomplete="username" readonly hidden>
        <label for="current_password">{{t.current_password}}</label>
        <input type="password" id="current_password" name="current_password" autocomplete="current-password" required>
        {{/has_password}}
        {{^has_password}}
        <p class="muted">{{t.add_password_intro}}</p>
        <label for="username">{{t.username}}</label>
        {{#has_username}}<input type="text" id="username" name="username" value="{{username}}" autocomplete="username" readonly>{{/has_username}}
        {{^has_username}}<input type="text" id="username" name="username" value="{{username}}" autocomplete="username" autocapitalize="none" spellcheck="false" minlength="3" maxlength="64" required>{{/has_username}}
        {{/has_password}}
        <label for="password">{{t.new_password}}</label>
        <input type="password" id="password" name="new_password" autocomplete="new-password" minlength="8" required aria-describedby="password-hint password-strength">
        <p class="hint" id="password-hint">{{t.password_hint}}</p>
        <p class="hint" id="password-strength" aria-live="polite" data-short="{{t.strength_short}}" data-username="{{t.strength_username}}" data-repetitive="{{t.strength_repetitive}}" data-sequential="{{t.strength_sequential}}" data-ok="{{t.strength_ok}}"></p>
        <button type="submit" class="primary">{{t.save_password}}</button>
        </form>
        <p class="switch"><a href="/account">{{t.back_to_account}}</a></p>
        \(PasswordStrengthScript.element)
        {{> foot}}
        """

    static let error = """
        {{> head}}
        <h1>{{t.error_title}}</h1>
        <p class="error" role="alert">{{message}}</p>
        <p class="muted">{{t.error_code}}: <code>{{code}}</code></p>
        <p class="switch"><a href="/">{{t.back_home}}</a></p>
        {{> foot}}
        """
}
