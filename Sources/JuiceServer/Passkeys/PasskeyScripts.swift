import Crypto
import Foundation

/// The passkey scripts of the login and account pages: inline, each allowed by its SHA-256 in its
/// page's Content-Security-Policy, with `fetch` to this site only. Without JavaScript or without
/// WebAuthn (`window.PublicKeyCredential` missing) they do nothing and their buttons stay hidden; the
/// rest of each page works on.
enum PasskeyScripts {
    /// `post(path, body)`: a same-origin JSON POST that resolves with the answer's JSON, or rejects with
    /// it (`{error, reason}`) when the status is not 2xx.
    private static let post = """
        function post(p,body){return fetch(p,{method:"POST",credentials:"same-origin",headers:{"Content-Type":"application/json",\
        "Accept":"application/json"},body:JSON.stringify(body)}).then(function(r){return r.json().catch(function(){return{}})\
        .then(function(j){if(!r.ok)throw j;return j})})}
        """

    /// The login page: shows `#passkey-sign-in` and starts a conditional request on load (the
    /// browser offers passkeys in the `autocomplete="username webauthn"` field, and
    /// `data-passkey-autofill` marks the field `started` once it has been asked, `ended` when that request
    /// ended without signing in); the button aborts that
    /// request and asks with the browser's own dialog. The assertion goes to `POST /auth/passkey`,
    /// which sets the session cookie; a refusal shows its localized reason in `#passkey-error`, and a
    /// passkey the server does not know is signalled to the browser's passkey manager
    /// (`PublicKeyCredential.signalUnknownCredential`) where it has the Signal API. A conditional
    /// request with nothing to offer, or a dialog the person closed, shows nothing (the dialog: a short
    /// hint); a conditional request is not restarted after a refusal.
    static let login = """
        (function(){var P=window.PublicKeyCredential,b=document.getElementById("passkey-sign-in"),e=document.getElementById("passkey-error"),\
        u=document.getElementById("username");if(!b||!e||!P||!P.parseRequestOptionsFromJSON||!window.fetch||!window.AbortController)return;\
        b.hidden=false;var current=null;\(post)\
        function show(m){e.textContent=m;e.hidden=false}\
        function signIn(mediation){if(current)current.abort();var c=new AbortController(),rpId="",id="";current=c;\
        post("/api/auth/passkey/options",{}).then(function(o){rpId=o.publicKey.rpId;\
        var q={publicKey:P.parseRequestOptionsFromJSON(o.publicKey),signal:c.signal};if(mediation)q.mediation=mediation;\
        var asked=navigator.credentials.get(q);if(mediation&&u)u.setAttribute("data-passkey-autofill","started");return asked})\
        .then(function(k){id=k.id;return post("/auth/passkey",k.toJSON())}).then(function(j){window.location.assign(j.location||"/account")})\
        .catch(function(x){if(mediation&&u)u.setAttribute("data-passkey-autofill","ended");if(c.signal.aborted)return;x=x||{};\
        if(x.name==="NotAllowedError"||x.name==="AbortError"){if(!mediation)show(e.getAttribute("data-cancelled"));return}\
        if(x.error==="unknown_credential"&&id&&P.signalUnknownCredential){P.signalUnknownCredential({rpId:rpId,credentialId:id}).catch(function(){})}\
        show(x.reason||e.getAttribute("data-message"))})}\
        b.addEventListener("click",function(){e.hidden=true;signIn(null)});\
        if(P.isConditionalMediationAvailable)P.isConditionalMediationAvailable().then(function(ok){if(ok)signIn("conditional")},function(){})})();
        """

    /// The account page: tells the browser's passkey manager which of the account's passkeys the
    /// server still accepts (`signalAllAcceptedCredentials`, from `#passkeys`' `data-rp-id`,
    /// `data-user-id` and `data-credential-ids`) and, after a removal, that the removed one is gone
    /// (`signalUnknownCredential`, `data-removed-credential`), marking `data-signal-all` and
    /// `data-signal-unknown` `sent` or `refused`. Where the page says `data-upgrade` (a password sign-in
    /// minutes ago, no passkey yet) and the browser reports `conditionalCreate` in
    /// `getClientCapabilities()`, asks for an automatic upgrade: `POST /api/passkeys/upgrade/options`,
    /// `navigator.credentials.create({mediation: "conditional"})` (the passkey manager decides, silently;
    /// `asked` while it is pending) and `POST /api/passkeys/upgrade`, marking `data-upgrade` `created`,
    /// `unsupported` or `ended`; the page is not reloaded. "Add a passkey" aborts a pending upgrade first
    /// (a browser runs one WebAuthn request at a time). Shows the "Add a passkey" form and the offer, which
    /// create a passkey (`navigator.credentials.create`) and post `toJSON()` with its name to the API.
    static let account = """
        (function(){var P=window.PublicKeyCredential,s=document.getElementById("passkeys");if(!s||!P)return;\
        function mark(n,p){p.then(function(){s.setAttribute(n,"sent")},function(){s.setAttribute(n,"refused")})}\
        var rpId=s.getAttribute("data-rp-id"),user=s.getAttribute("data-user-id"),ids=s.getAttribute("data-credential-ids"),\
        gone=s.getAttribute("data-removed-credential");\
        if(user&&ids!==null&&P.signalAllAcceptedCredentials)mark("data-signal-all",\
        P.signalAllAcceptedCredentials({rpId:rpId,userId:user,allAcceptedCredentialIds:ids?ids.split(" "):[]}));\
        if(gone&&P.signalUnknownCredential)mark("data-signal-unknown",P.signalUnknownCredential({rpId:rpId,credentialId:gone}));\
        var up=window.AbortController?new AbortController():null;\
        if(up&&s.getAttribute("data-upgrade")&&P.getClientCapabilities&&P.parseCreationOptionsFromJSON&&window.fetch)\
        P.getClientCapabilities().then(function(c){if(!c||!c.conditionalCreate){s.setAttribute("data-upgrade","unsupported");return}\
        return post("/api/passkeys/upgrade/options",{}).then(function(r){if(up.signal.aborted)throw up.signal.reason;\
        var q=navigator.credentials.create({publicKey:P.parseCreationOptionsFromJSON(r.publicKey),mediation:"conditional",signal:up.signal});\
        s.setAttribute("data-upgrade","asked");return q})\
        .then(function(k){return post("/api/passkeys/upgrade",k.toJSON())}).then(function(){s.setAttribute("data-upgrade","created")})})\
        .catch(function(){s.setAttribute("data-upgrade","ended")});\
        var f=document.getElementById("add-passkey-form"),e=document.getElementById("passkey-error"),n=document.getElementById("passkey-name"),\
        offer=document.getElementById("passkey-offer"),o=document.getElementById("offer-add-passkey");\
        if(!f||!e||!P.parseCreationOptionsFromJSON||!window.fetch)return;f.hidden=false;if(offer)offer.hidden=false;\(post)\
        function add(){e.hidden=true;if(up)up.abort();post("/api/passkeys/registration/options",{})\
        .then(function(r){return navigator.credentials.create({publicKey:P.parseCreationOptionsFromJSON(r.publicKey)})})\
        .then(function(c){var body=c.toJSON();body.name=n?n.value:"";return post("/api/passkeys/registration",body)})\
        .then(function(){window.location.assign("/account?notice=passkey_added")}).catch(function(x){x=x||{};\
        e.textContent=e.getAttribute(x.name==="NotAllowedError"?"data-cancelled":x.name==="InvalidStateError"?"data-exists":"data-message");\
        e.hidden=false})}\
        f.addEventListener("submit",function(ev){ev.preventDefault();add()});if(o)o.addEventListener("click",add)})();
        """

    /// The sign-up page: shows `#passkey-signup-form` (a username, no password) where the browser has
    /// WebAuthn with `parseCreationOptionsFromJSON`; on submit it asks `POST /api/accounts/passkey/options`
    /// for that username, calls `navigator.credentials.create()` and posts `toJSON()` with the options'
    /// `user.id` as `userHandle` and the username to `POST /signup/passkey`, which creates the account
    /// and sets the session cookie. A refusal shows its localized reason in `#passkey-signup-error`; a
    /// closed dialog, a short hint.
    static let signUp = """
        (function(){var P=window.PublicKeyCredential,f=document.getElementById("passkey-signup-form"),\
        e=document.getElementById("passkey-signup-error"),u=document.getElementById("passkey-username");\
        if(!f||!e||!u||!P||!P.parseCreationOptionsFromJSON||!window.fetch)return;f.hidden=false;\(post)\
        f.addEventListener("submit",function(ev){ev.preventDefault();e.hidden=true;var name=u.value,handle="";\
        post("/api/accounts/passkey/options",{username:name}).then(function(r){handle=r.publicKey.user.id;\
        return navigator.credentials.create({publicKey:P.parseCreationOptionsFromJSON(r.publicKey)})})\
        .then(function(c){var body=c.toJSON();body.userHandle=handle;body.username=name;return post("/signup/passkey",body)})\
        .then(function(j){window.location.assign(j.location||"/account")}).catch(function(x){x=x||{};\
        e.textContent=x.name==="NotAllowedError"?e.getAttribute("data-cancelled"):(x.reason||e.getAttribute("data-message"));\
        e.hidden=false})})})();
        """

    /// The login page's `<script>` element.
    static let loginElement = "<script>\(login)</script>"
    /// The account page's `<script>` element.
    static let accountElement = "<script>\(account)</script>"

    /// The sign-up page's `<script>` element.
    static let signUpElement = "<script>\(signUp)</script>"

    /// The sign-up page's policy: the password meter and the passkey sign-up by hash, `fetch` to this site.
    static let signUpContentSecurityPolicy =
        PageRenderer.contentSecurityPolicy
        + "; script-src 'sha256-\(PasswordStrengthScript.sourceHash)' 'sha256-\(sha256(signUp))'; connect-src 'self'"

    /// The login page's script hash, for its policy (with or without Sign in with Apple JS).
    static let loginHash = sha256(login)

    /// The account page's policy: its script by hash, `fetch` to this site.
    static let accountContentSecurityPolicy =
        PageRenderer.contentSecurityPolicy + "; script-src 'sha256-\(sha256(account))'; connect-src 'self'"

    /// The login page's policy when Sign in with Apple JS is off: the passkey script by hash, `fetch` to this site.
    static let loginContentSecurityPolicy = PageRenderer.contentSecurityPolicy + "; script-src 'sha256-\(loginHash)'; connect-src 'self'"

    /// A script's SHA-256 as a CSP hash source takes it (base64).
    static func sha256(_ source: String) -> String {
        Data(SHA256.hash(data: Data(source.utf8))).base64EncodedString()
    }
}
