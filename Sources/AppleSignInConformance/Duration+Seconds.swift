extension Duration {
    /// The duration in seconds, to the millisecond.
    var inSeconds: Double {
        (Double(components.seconds) * 1000 + (Double(components.attoseconds) / 1e15).rounded()) / 1000
    }
}
