/// Rule: an option that takes one value is given once.
///
/// ArgumentParser keeps the last of a repeated option silently, so `juice emulator --data-dir A
/// --data-dir B` would run on B although A was asked for first (a test fixture's folder replaced by
/// `extra_args` the fixture never sees). Only the options declared as lists may repeat.
enum RepeatedOptionRule {
    /// The long options declared as lists (`@Option var …: [String]`).
    static let repeatable: Set<String> = ["--audience"]

    /// The first long option given more than once in `arguments` (before a `--` terminator), or `nil`.
    static func firstRepeated(in arguments: [String]) -> String? {
        var seen: Set<String> = []
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = String(argument.prefix { $0 != "=" })
            if repeatable.contains(name) { continue }
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }
}
