/// Stops the fuzzer with `message` when a security property of an accepted input does not hold: the
/// input that got through is then saved as a crash, like any trap.
public func fuzzRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property violated: \(message())") }
}
