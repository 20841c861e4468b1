/// The Apple logo drawn for this project as an SVG path (a 20×24 box), filled with `currentColor`
/// so it takes the button's text color.
enum AppleLogo {
    static let viewBox = "0 0 20 24"

    /// Body with its bite, then the leaf.
    static let path =
        "M10 7.2C8.7 6.2 6.9 6 5.4 6.6 2.6 7.7 1.3 10.8 1.7 14.2c.4 3.6 2.5 7.3 4.7 8.2 1.2.5 2.2-.2 3.6-.2s2.4.7 3.6.2"
        + "c1.8-.7 3.3-3 4.2-5.2-2.2-1-3.5-3.2-3.3-5.4.1-1.5.9-2.7 2.1-3.5-1.1-1.4-2.7-2-4.2-1.9-.9.1-1.6.4-2.4.8z"
        + "M10.3 5.6c-.1-2 1.5-4 3.7-4.4.2 2.1-1.5 4.2-3.7 4.4z"

    /// The logo as inline SVG of the given height in CSS pixels (decorative: hidden from assistive tech).
    static func svg(height: Double) -> String {
        let width = height * 20 / 24
        return "<svg class=\"apple-logo\" aria-hidden=\"true\" focusable=\"false\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(viewBox)\" "
            + "width=\"\(AppleIDButton.css(width))\" height=\"\(AppleIDButton.css(height))\"><path fill=\"currentColor\" d=\"\(path)\"/></svg>"
    }
}
