extension Duration {
    /// The span in seconds, as a `Double` (a benchmark's rates and figures).
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Milliseconds, to a tenth.
    var roundedMilliseconds: Double {
        (inSeconds * 10_000).rounded() / 10
    }
}
