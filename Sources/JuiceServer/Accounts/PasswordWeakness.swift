import Foundation

/// What makes a password too weak to accept, after NIST SP 800-63B §5.1.1.2: it is on a list of
/// commonly used and breached passwords, it is or contains the username, or it is repetitive or
/// sequential. There are no composition rules (no "one digit and one symbol").
///
/// Checked before a password reaches bcrypt.
enum PasswordWeakness: Sendable, Hashable, CaseIterable {
    /// On the list of commonly used and breached passwords (``CommonPasswords``).
    case common
    /// Equal to or containing the username.
    case containsUsername
    /// One character or a short pattern repeated, or at most two distinct characters (`aaaaaaaa`, `abababab`).
    case repetitive
    /// Consecutive characters, up or down, in at most two runs (`12345678`, `abcdefgh`, `1234abcd`).
    case sequential
    /// The new password is the current one.
    case unchanged

    /// The reason given to the person (safe to show: it never repeats the password).
    var reason: String {
        switch self {
        case .common: "this password is on a list of commonly used or breached passwords; choose one that is harder to guess"
        case .containsUsername: "a password may not be or contain the username"
        case .repetitive: "a password may not be a character or a short pattern repeated (like aaaaaaaa or abcabcabc)"
        case .sequential: "a password may not be a run of consecutive characters (like 12345678 or abcdefgh)"
        case .unchanged: "the new password is the same as the current one"
        }
    }

    /// The first rule `password` breaks, or `nil`.
    ///
    /// - Parameters:
    ///   - password: The candidate, already within the length limits.
    ///   - username: The normalized username it may not contain, if any.
    ///   - list: The common passwords.
    static func check(_ password: String, username: String?, list: CommonPasswords) -> PasswordWeakness? {
        let lowered = comparable(password)
        if let username, username.count >= 3, lowered.contains(username) { return .containsUsername }
        let scalars = Array(lowered.unicodeScalars)
        if isRepetitive(scalars) { return .repetitive }
        if isSequential(scalars) { return .sequential }
        if list.contains(lowered) { return .common }
        return nil
    }

    /// The form every rule compares: NFKC (compatibility characters such as fullwidth letters become
    /// their plain forms), without leading or trailing whitespace, in lowercase. `"ｐａｓｓｗｏｒｄ"`,
    /// `" password"` and `"PASSWORD "` all become `"password"`.
    static func comparable(_ password: String) -> String {
        password.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// At most two distinct characters, or a unit of one to three characters repeated throughout.
    static func isRepetitive(_ scalars: [Unicode.Scalar]) -> Bool {
        if Set(scalars).count <= 2 { return true }
        for unit in 1...3 where scalars.count >= unit * 2 {
            if scalars.indices.allSatisfy({ scalars[$0] == scalars[$0 % unit] }) { return true }
        }
        return false
    }

    /// Every step between neighbours is +1 or −1 in the same direction within a run, with at most
    /// one break between runs.
    static func isSequential(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count >= 2 else { return false }
        var breaks = 0
        var direction: Int64 = 0
        for index in 1..<scalars.count {
            let step = Int64(scalars[index].value) - Int64(scalars[index - 1].value)
            if abs(step) == 1 && (direction == 0 || step == direction) {
                direction = step
            } else {
                breaks += 1
                direction = 0
                if breaks > 1 { return false }
            }
        }
        return true
    }
}
