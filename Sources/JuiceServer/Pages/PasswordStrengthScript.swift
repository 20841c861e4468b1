import Crypto
import Foundation

/// The strength hint the sign-up and password pages show as the person types: the same rules as
/// ``PasswordWeakness`` except the list of common passwords (checked by the server on submit). An
/// inline script allowed by its hash in the page's Content-Security-Policy; nothing external.
enum PasswordStrengthScript {
    /// The script. The hint element carries the localized messages in `data-` attributes.
    static let source = """
        (function(){var p=document.getElementById("password"),u=document.getElementById("username"),h=document.getElementById("password-strength");\
        if(!p||!h)return;\
        function rep(a){if(new Set(a).size<=2)return true;for(var n=1;n<=3;n++){if(a.length<n*2)continue;var same=true;\
        for(var i=0;i<a.length;i++){if(a[i]!==a[i%n]){same=false;break}}if(same)return true}return false}\
        function seq(a){var c=a.map(function(x){return x.codePointAt(0)}),breaks=0,d=0;for(var i=1;i<c.length;i++){var t=c[i]-c[i-1];\
        if(Math.abs(t)===1&&(d===0||t===d)){d=t}else{breaks++;d=0;if(breaks>1)return false}}return c.length>=2}\
        function show(){var v=p.value,l=v.toLowerCase(),a=Array.from(l),n=u?u.value.trim().toLowerCase():"",k="";\
        if(v){if(Array.from(v).length<8)k="short";else if(n.length>=3&&l.indexOf(n)>=0)k="username";else if(rep(a))k="repetitive";\
        else if(seq(a))k="sequential";else k="ok"}\
        h.textContent=k?h.getAttribute("data-"+k):"";h.setAttribute("data-verdict",k)}\
        p.addEventListener("input",show);if(u)u.addEventListener("input",show);show()})();
        """

    /// The `<script>` element.
    static let element = "<script>\(source)</script>"

    /// The page policy with this script allowed by its SHA-256.
    static let contentSecurityPolicy = PageRenderer.contentSecurityPolicy + "; script-src 'sha256-\(sourceHash)'"

    /// The script's SHA-256 as a CSP hash source takes it (base64).
    static let sourceHash = Data(SHA256.hash(data: Data(source.utf8))).base64EncodedString()
}
