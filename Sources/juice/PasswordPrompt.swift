import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a password: at a terminal, prompted on standard error with echo off; otherwise the first
/// line of standard input (for scripts).
enum PasswordPrompt {
    static func read(_ prompt: String) throws -> String {
        let line = isatty(STDIN_FILENO) != 0 ? readWithoutEcho(prompt) : readLine(strippingNewline: true)
        guard let line, !line.isEmpty else { throw CLIError("no password given (type it, or pipe it on standard input)") }
        return line
    }

    private static func readWithoutEcho(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        let line = readLine(strippingNewline: true)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        FileHandle.standardError.write(Data("\n".utf8))
        return line
    }
}
