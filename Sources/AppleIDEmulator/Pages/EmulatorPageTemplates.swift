import JuiceInfrastructure

/// The Mustache templates of the Apple pages. User data is only ever rendered with `{{ }}` (escaped).
enum EmulatorPageTemplates {
    static let autoSubmitScript = "document.getElementById('apple-response').submit();"

    /// The web_message page's script: posts the answer to the opener, targeted at the origin in
    /// `data-origin` (never `*`), then closes the popup (an error page stays open to be read).
    static let webMessageScript = """
        (function(){var e=document.getElementById("apple-web-message");if(!e)return;\
        try{if(window.opener)window.opener.postMessage(JSON.parse(e.getAttribute("data-message")),e.getAttribute("data-origin"))}catch(x){}\
        if(e.getAttribute("data-close")==="true")window.close()})();
        """

    static let head =
        PageTemplateLibrary.documentStart + """
            <title>{{title}}</title>
            <style>
            body{font-family:-apple-system,BlinkMacSystemFont,"Helvetica Neue","PingFang SC",Helvetica,Arial,sans-serif;background:#f5f5f7;color:#1d1d1f;margin:0}
            main{max-width:30rem;margin:3rem auto;background:#fff;border-radius:18px;padding:2rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
            .logo{text-align:center;margin:0}
            h1{font-size:1.5rem;text-align:center;font-weight:600}
            label{display:block;margin:.75rem 0 .25rem;font-weight:500}
            input[type=text],input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.7rem;border:1px solid #86868b;border-radius:10px;font-size:1rem}
            fieldset{border:1px solid #d2d2d7;border-radius:10px;margin:1rem 0;padding:.5rem 1rem}
            legend{font-weight:600}
            .choice label{display:inline;font-weight:400}
            .hint{color:#515154;font-size:.9rem;margin:.1rem 0 .5rem 1.6rem}
            .buttons{display:flex;gap:.75rem;margin-top:1.5rem}
            button{flex:1;padding:.75rem;border-radius:10px;font-size:1rem;border:1px solid #1d1d1f;background:#fff;color:#1d1d1f;cursor:pointer}
            button.primary{background:#000;color:#fff}
            button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #0071e3;outline-offset:2px}
            .error{color:#b00020;background:#fdecee;border-radius:10px;padding:.75rem}
            .note{color:#515154;text-align:center}
            table{width:100%;border-collapse:collapse;font-size:.9rem}
            th,td{text-align:left;padding:.4rem;border-bottom:1px solid #e5e5ea;vertical-align:top}
            section{margin-top:1.5rem}
            code{word-break:break-all}
            </style>
            </head>
            <body>
            <main>
            <p class="logo" aria-hidden="true"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 24" width="40" height="48" focusable="false"><path fill="currentColor" d="M10 7.2C8.7 6.2 6.9 6 5.4 6.6 2.6 7.7 1.3 10.8 1.7 14.2c.4 3.6 2.5 7.3 4.7 8.2 1.2.5 2.2-.2 3.6-.2s2.4.7 3.6.2c1.8-.7 3.3-3 4.2-5.2-2.2-1-3.5-3.2-3.3-5.4.1-1.5.9-2.7 2.1-3.5-1.1-1.4-2.7-2-4.2-1.9-.9.1-1.6.4-2.4.8zM10.3 5.6c-.1-2 1.5-4 3.7-4.4.2 2.1-1.5 4.2-3.7 4.4z"/></svg></p>
            """

    static let foot = """
        </main>
        </body>
        </html>
        """

    static let hiddenFields = """
        {{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/hidden}}
        """

    static let signIn = """
        {{> head}}
        <h1>{{t.sign_in_title}}</h1>
        <p class="note">{{intro}}</p>
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        <form method="post" action="/auth/authorize">
        {{> hidden}}
        <label for="account_name">{{t.account_name}}</label>
        <input type="email" id="account_name" name="account_name" value="{{account_name}}" autocomplete="username" required autofocus{{#error}} aria-describedby="form-error" aria-invalid="true"{{/error}}>
        <label for="password">{{t.password}}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required>
        <div class="buttons">
        <button type="submit" name="action" value="cancel" formnovalidate>{{t.cancel}}</button>
        <button type="submit" class="primary" name="step" value="sign_in">{{t.sign_in}}</button>
        </div>
        </form>
        {{> foot}}
        """

    static let consent = """
        {{> head}}
        <h1>{{heading}}</h1>
        <p class="note">{{signed_in_as}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/auth/authorize">
        {{> hidden}}
        {{#ask_name}}
        <fieldset>
        <legend>{{t.name}}</legend>
        <label for="first_name">{{t.first_name}}</label>
        <input type="text" id="first_name" name="first_name" value="{{first_name}}" autocomplete="given-name" maxlength="64">
        <label for="last_name">{{t.last_name}}</label>
        <input type="text" id="last_name" name="last_name" value="{{last_name}}" autocomplete="family-name" maxlength="64">
        </fieldset>
        {{/ask_name}}
        {{#ask_email}}
        <fieldset>
        <legend>{{t.email}}</legend>
        <div class="choice"><input type="radio" id="email_share" name="email_choice" value="share" checked> <label for="email_share">{{t.share_email}}</label>
        <p class="hint" id="email_share_hint">{{email}}</p></div>
        <div class="choice"><input type="radio" id="email_hide" name="email_choice" value="hide" aria-describedby="email_hide_hint"> <label for="email_hide">{{t.hide_email}}</label>
        <p class="hint" id="email_hide_hint">{{relay_email}} — {{forward_hint}}</p></div>
        </fieldset>
        {{/ask_email}}
        {{#managed_note}}
        <fieldset>
        <legend>{{t.email}}</legend>
        <p class="hint" id="managed_email">{{managed_note}}{{#managed_email}} <code>{{managed_email}}</code>{{/managed_email}}</p>
        </fieldset>
        {{/managed_note}}
        <div class="buttons">
        <button type="submit" name="action" value="cancel">{{t.cancel}}</button>
        <button type="submit" class="primary" name="action" value="continue" autofocus>{{t.continue}}</button>
        </div>
        </form>
        {{> foot}}
        """

    static let formPost = """
        {{> head}}
        <h1>{{t.redirecting}}</h1>
        <form id="apple-response" method="post" action="{{redirect_uri}}">
        {{> hidden}}
        <div class="buttons"><button type="submit" class="primary">{{t.redirect_button}}</button></div>
        </form>
        <script>\(autoSubmitScript)</script>
        {{> foot}}
        """

    /// `response_mode=web_message`: the answer for the opener (in attributes, so no markup can break
    /// out of it), then, for an error, what went wrong.
    static let webMessage = """
        {{> head}}
        <h1>{{heading}}</h1>
        {{#code}}<p role="alert">{{t.error_intro}}</p>
        <p>{{t.error_code}}: <code>{{code}}</code></p>
        {{#description}}<p><code>{{description}}</code></p>{{/description}}{{/code}}
        <p class="note">{{t.close_window}}</p>
        <div id="apple-web-message" hidden data-origin="{{origin}}" data-message="{{message}}" data-close="{{close}}"></div>
        <script>\(webMessageScript)</script>
        {{> foot}}
        """

    static let error = """
        {{> head}}
        <h1>{{t.error_title}}</h1>
        <p role="alert">{{t.error_intro}}</p>
        <p>{{t.error_code}}: <code>{{code}}</code></p>
        {{#description}}<p><code>{{description}}</code></p>{{/description}}
        {{> foot}}
        """

    static let portalSignIn = """
        {{> head}}
        <h1>{{t.portal_sign_in}}</h1>
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        <form method="post" action="/account/sign-in">
        <label for="account_name">{{t.account_name}}</label>
        <input type="email" id="account_name" name="account_name" value="{{account_name}}" autocomplete="username" required autofocus>
        <label for="password">{{t.password}}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required>
        <div class="buttons"><button type="submit" class="primary">{{t.sign_in}}</button></div>
        </form>
        {{> foot}}
        """

    static let portal = """
        {{> head}}
        <h1>{{t.portal_title}}</h1>
        <p class="note">{{signed_in_as}}</p>
        {{#managed}}<p class="note" id="managed">{{managed}}</p>{{/managed}}
        {{#message}}<p role="status">{{message}}</p>{{/message}}
        {{#managed}}
        <section aria-labelledby="organization-heading">
        <h2 id="organization-heading">{{t.portal_organization}}</h2>
        {{#organization_apps}}
        <form method="post" action="/account/organization">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="bundle_id" value="{{bundle_id}}">
        <input type="hidden" name="blocked" value="{{blocked_next}}">
        <p><code>{{bundle_id}}</code>: {{state}} <button type="submit">{{button}}</button></p>
        </form>
        {{/organization_apps}}
        </section>
        {{/managed}}
        <section aria-labelledby="apps-heading">
        <h2 id="apps-heading">{{t.portal_apps}}</h2>
        {{^apps}}<p>{{t.portal_no_apps}}</p>{{/apps}}
        {{#apps}}
        <article>
        <h3>{{bundle_id}}</h3>
        <p>{{t.portal_team}}: {{team_id}} · {{t.portal_since}}: {{since}}</p>
        {{#relay}}
        <p>{{t.portal_relay}} — {{t.portal_relay_address}}: <code>{{relay}}</code> ({{forwarding_text}})</p>
        <form method="post" action="/account/forwarding">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="team_id" value="{{team_id}}">
        <input type="hidden" name="enabled" value="{{forwarding_next}}">
        <button type="submit">{{forwarding_button}}</button>
        </form>
        {{/relay}}
        <form method="post" action="/account/test-notification">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="bundle_id" value="{{bundle_id}}">
        <button type="submit">{{t.portal_test_notification}}</button>
        </form>
        <form method="post" action="/account/stop-using">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="bundle_id" value="{{bundle_id}}">
        <button type="submit">{{t.portal_stop}}</button>
        </form>
        </article>
        {{/apps}}
        </section>
        <section aria-labelledby="notifications-heading">
        <h2 id="notifications-heading">{{t.portal_notifications}}</h2>
        {{^notifications}}<p>{{t.portal_no_notifications}}</p>{{/notifications}}
        {{#has_notifications}}
        <table>
        <thead><tr><th scope="col">{{t.apple_id}}</th><th scope="col">{{t.portal_status}}</th><th scope="col">{{t.portal_attempts}}</th></tr></thead>
        <tbody>
        {{#notifications}}<tr><td>{{type}} → {{audience}}</td><td>{{status}} {{last_result}}</td><td>{{attempts}}</td></tr>
        {{/notifications}}
        </tbody>
        </table>
        {{/has_notifications}}
        {{#has_attempts}}
        <h3 id="attempts-heading">{{t.portal_attempts_log}}</h3>
        <table aria-labelledby="attempts-heading">
        <thead><tr><th scope="col">{{t.portal_attempted}}</th><th scope="col">{{t.portal_notification}}</th><th scope="col">URL</th><th scope="col">{{t.portal_result}}</th><th scope="col">{{t.portal_next_retry}}</th></tr></thead>
        <tbody>
        {{#attempts}}<tr class="attempt"><td>{{attempted}}</td><td>#{{notification_id}} {{type}}</td><td><code>{{url}}</code></td><td>{{result}}</td><td>{{next}}</td></tr>
        {{/attempts}}
        </tbody>
        </table>
        {{/has_attempts}}
        </section>
        <section aria-labelledby="mail-heading">
        <h2 id="mail-heading">{{t.portal_mail}}</h2>
        {{^has_mail}}<p>{{t.portal_no_mail}}</p>{{/has_mail}}
        {{#has_mail}}
        <table>
        <thead><tr><th scope="col">{{t.portal_mail_from}}</th><th scope="col">{{t.portal_mail_subject}}</th><th scope="col">{{t.portal_mail_received}}</th></tr></thead>
        <tbody>
        {{#mail}}<tr><td>{{from}}<br><small>→ {{to}}</small></td><td><a href="/account/mail/{{id}}">{{subject}}</a></td><td>{{received}}</td></tr>
        {{/mail}}
        </tbody>
        </table>
        {{/has_mail}}
        </section>
        <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">{{t.portal_delete}}</h2>
        <form method="post" action="/account/delete">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <div class="choice"><input type="checkbox" id="confirm" name="confirm" value="yes" required> <label for="confirm">{{t.portal_delete_confirm}}</label></div>
        <div class="buttons"><button type="submit">{{t.portal_delete}}</button></div>
        </form>
        </section>
        <form method="post" action="/account/sign-out">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <div class="buttons"><button type="submit">{{t.portal_sign_out}}</button></div>
        </form>
        {{> foot}}
        """

    static let mailMessage = """
        {{> head}}
        <h1>{{subject}}</h1>
        <table>
        <tr><th scope="row">{{t.portal_mail_from}}</th><td>{{from}}</td></tr>
        <tr><th scope="row">{{t.portal_mail_to}}</th><td><code>{{to}}</code></td></tr>
        <tr><th scope="row">{{t.portal_mail_delivered_to}}</th><td>{{delivered_to}}</td></tr>
        <tr><th scope="row">{{t.portal_mail_received}}</th><td>{{received}}</td></tr>
        <tr><th scope="row">{{t.portal_mail_size}}</th><td>{{size}}</td></tr>
        </table>
        {{#is_html}}<p class="note">{{t.portal_mail_html}}</p>{{/is_html}}
        <pre style="white-space:pre-wrap;word-break:break-word">{{body}}</pre>
        <p><a href="/account">{{t.portal_mail_back}}</a></p>
        {{> foot}}
        """
}
