import Foundation
import JuiceEncodings
import JuiceInfrastructure

/// The login page's popup sign-in: Sign in with Apple JS loaded from the Apple base URL in use (Apple's
/// CDN for `https://appleid.apple.com`, the emulator's own copy at the same path otherwise), and a
/// small inline script (allowed by its hash) that turns the Sign in with Apple link into a popup.
///
/// Without JavaScript, or when the script cannot load, the link still starts the redirect flow
/// (`GET /auth/apple`, `form_post`).
struct AppleJSScript: Sendable {
    /// Where Apple serves the script.
    static let appleCDN = "https://appleid.cdn-apple.com"

    /// The origin the script comes from (`script-src` of the login page).
    let scriptOrigin: String
    private let scriptBase: String

    init(appleBaseURL: URL) {
        var base = appleBaseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        if base.lowercased() == "https://appleid.apple.com" { base = Self.appleCDN }
        self.scriptBase = base
        self.scriptOrigin = URL(string: base)?.webOrigin ?? base
    }

    /// The script's URL in `language` (`en_US` or `zh_CN`).
    func scriptURL(_ language: PageLanguage) -> String {
        scriptBase + "/appleauth/static/jsapi/appleid/1/\(language == .simplifiedChinese ? "zh_CN" : "en_US")/appleid.auth.js"
    }

    /// The login page's policy: Apple's script, the inline script and the passkey script
    /// (``PasskeyScripts/login``) by their hashes, `fetch` to this site.
    var contentSecurityPolicy: String {
        PageRenderer.contentSecurityPolicy
            + "; script-src \(scriptOrigin) 'sha256-\(Self.sourceHash)' 'sha256-\(PasskeyScripts.loginHash)'; connect-src 'self'"
    }

    /// The page script. The link is `.apple a.apple-id-button`; `#apple-popup-error` shows a failure.
    /// The state and nonce are fetched when the pointer or focus reaches the button (so the popup
    /// opens within the click's user activation, and a GET of the page writes nothing); a cancel
    /// goes to `/?notice=cancelled`, a closed popup leaves the page as it was.
    static let source = """
        (function(){var b=document.querySelector(".apple a.apple-id-button"),e=document.getElementById("apple-popup-error");\
        if(!b||!window.AppleID||!window.AppleID.auth||!window.fetch||!window.Promise)return;var prepared=null;\
        function post(u,body){return fetch(u,{method:"POST",credentials:"same-origin",headers:{"Content-Type":"application/json",\
        "Accept":"application/json"},body:JSON.stringify(body||{})}).then(function(r){return r.json().catch(function(){return{}})\
        .then(function(j){if(!r.ok)throw j;return j})})}\
        function prepare(){if(!prepared){prepared=post("/auth/apple/popup",{});prepared.catch(function(){prepared=null})}return prepared}\
        ["pointerenter","focus","touchstart"].forEach(function(n){b.addEventListener(n,function(){prepare().catch(function(){})},{passive:true})});\
        b.addEventListener("click",function(ev){ev.preventDefault();if(e)e.hidden=true;\
        prepare().then(function(c){window.AppleID.auth.init({clientId:c.clientId,scope:c.scope,redirectURI:c.redirectURI,state:c.state,\
        nonce:c.nonce,usePopup:true});return window.AppleID.auth.signIn()}).then(function(r){prepared=null;var a=r.authorization||{};\
        return post("/auth/apple/popup/complete",{code:a.code,id_token:a.id_token,state:a.state,user:r.user})})\
        .then(function(j){window.location.assign(j.location||"/account")}).catch(function(x){var c=x&&x.error;\
        if(c==="popup_closed_by_user")return;if(c==="user_cancelled_authorize"){window.location.assign("/?notice=cancelled");return}\
        prepared=null;if(e){e.textContent=(x&&x.reason)||e.getAttribute("data-message");e.hidden=false}})})})();
        """

    /// The inline `<script>` element.
    static let element = "<script>\(source)</script>"

    static let sourceHash = PasskeyScripts.sha256(source)
}
