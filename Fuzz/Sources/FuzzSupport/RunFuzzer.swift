import CLibFuzzer

/// Hands the process to libFuzzer's driver with `target` as the function under test, and returns its
/// exit status. A fuzz executable's entry point calls this: SwiftPM links every executable with its
/// own `main`, so libFuzzer's `main` is never used.
public func runFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, target)
}
