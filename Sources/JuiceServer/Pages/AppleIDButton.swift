import Foundation
import JuiceEncodings
import JuiceInfrastructure

/// A Sign in with Apple button drawn to Apple's rules for the web.
///
/// - Titles: only "Sign in with Apple", "Continue with Apple", "Sign up with Apple" (localized), or
///   the logo alone (a square).
/// - Styles: black, white, white with an outline.
/// - Size: at least 140×30 points with a title; height 30–64; a logo-only button is square (30–64).
/// - Margin: at least a tenth of the height on every side.
/// - Corner radius: 0–50 points (Apple's default rounds slightly).
///
/// ```swift
/// let button = try AppleIDButton(type: .continue, style: .whiteOutline, width: 280, height: 44, language: .simplifiedChinese)
/// let html = button.html(href: "/auth/apple")
/// ```
struct AppleIDButton: Sendable, Hashable {
    /// The title.
    enum ButtonType: String, Sendable, Hashable, CaseIterable {
        /// "Sign in with Apple".
        case signIn = "sign-in"
        /// "Continue with Apple".
        case `continue` = "continue"
        /// "Sign up with Apple".
        case signUp = "sign-up"

        var stringKey: String {
            switch self {
            case .signIn: return "button_sign_in"
            case .continue: return "button_continue"
            case .signUp: return "button_sign_up"
            }
        }
    }

    /// The colors.
    enum Style: String, Sendable, Hashable, CaseIterable {
        /// White logo and text on black: for white or light backgrounds.
        case black
        /// Black on white: for dark backgrounds.
        case white
        /// Black on white with a black outline: for white backgrounds without enough contrast.
        case whiteOutline = "white-outline"
    }

    /// A parameter outside Apple's rules.
    struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Which rule.
        let reason: String
        var description: String { reason }
    }

    /// Heights Apple allows on the web.
    static let heightRange = 30...64
    /// The narrowest titled button.
    static let minimumWidth = 140
    /// Corner radii Apple allows.
    static let cornerRadiusRange = 0...50

    /// The title.
    let type: ButtonType
    /// The colors.
    let style: Style
    /// Width in CSS pixels (points).
    let width: Int
    /// Height in CSS pixels (points).
    let height: Int
    /// Corner radius in CSS pixels.
    let cornerRadius: Int
    /// Whether only the logo is shown (a square button; the title becomes its accessible name).
    let logoOnly: Bool
    /// The language of the title.
    let language: PageLanguage

    /// Creates a button, checking every parameter against Apple's rules.
    /// - Throws: ``ValidationError`` naming the rule broken.
    init(
        type: ButtonType = .signIn, style: Style = .black, width: Int = 240, height: Int = 44, cornerRadius: Int = 8, logoOnly: Bool = false,
        language: PageLanguage = .english
    ) throws(ValidationError) {
        guard Self.heightRange.contains(height) else {
            throw ValidationError(
                reason: "the height must be between \(Self.heightRange.lowerBound) and \(Self.heightRange.upperBound) points, not \(height)")
        }
        if logoOnly {
            guard width == height else {
                throw ValidationError(reason: "a logo-only button is square: its width (\(width)) must equal its height (\(height))")
            }
        } else {
            guard width >= Self.minimumWidth else {
                throw ValidationError(reason: "the width must be at least \(Self.minimumWidth) points, not \(width)")
            }
        }
        guard Self.cornerRadiusRange.contains(cornerRadius) else {
            throw ValidationError(reason: "the corner radius must be between 0 and 50 points, not \(cornerRadius)")
        }
        self.type = type
        self.style = style
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
        self.logoOnly = logoOnly
        self.language = language
    }

    /// The localized title ("Sign in with Apple", "通过 Apple 登录", …).
    var title: String { PageStrings.string(type.stringKey, language) }

    /// The margin kept clear around the button: a tenth of the height, rounded up.
    var margin: Int { (height + 9) / 10 }

    /// The button as an HTML link to `href` (a GET that starts the sign-in).
    func html(href: String) -> String {
        let radius = min(cornerRadius, height / 2)
        let fontSize = Double(height) * 0.43
        let logoHeight = Double(height) * (logoOnly ? 0.56 : 0.46)
        var style = "width:\(width)px;height:\(height)px;border-radius:\(radius)px;margin:\(margin)px;font-size:\(Self.css(fontSize))px"
        if !logoOnly { style += ";gap:\(Self.css(Double(height) * 0.12))px" }
        let label = title.htmlEscaped
        let content = logoOnly ? AppleLogo.svg(height: logoHeight) : AppleLogo.svg(height: logoHeight) + "<span>\(label)</span>"
        let accessibleName = logoOnly ? " aria-label=\"\(label)\"" : ""
        return "<a class=\"apple-id-button apple-id-button-\(self.style.rawValue)\" href=\"\(href.htmlEscaped)\" lang=\"\(language.tag)\""
            + " data-type=\"\(type.rawValue)\" style=\"\(style)\"\(accessibleName)>\(content)</a>"
    }

    /// A CSS number with at most two decimals.
    static func css(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// The stylesheet the buttons need (colors per style; layout).
    static let stylesheet = """
        .apple-id-button{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;text-decoration:none;\
        font-family:-apple-system,BlinkMacSystemFont,"SF Pro Text","Helvetica Neue","PingFang SC",Helvetica,Arial,sans-serif;font-weight:500;\
        letter-spacing:-.01em;white-space:nowrap;overflow:hidden;border:1px solid transparent}
        .apple-id-button .apple-logo{flex:none}
        .apple-id-button-black{background:#000;color:#fff}
        .apple-id-button-white{background:#fff;color:#000}
        .apple-id-button-white-outline{background:#fff;color:#000;border-color:#000}
        .apple-id-button:focus-visible{outline:3px solid #0071e3;outline-offset:2px}
        """
}
