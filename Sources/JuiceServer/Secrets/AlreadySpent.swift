/// A sign-in's transaction found single-use values spent before (``SpentValues/spendAll(_:at:on:)``);
/// the transaction is rolled back, and the caller answers with the value's own error.
struct AlreadySpent: Error, Equatable {
    /// The keys that had been spent.
    let keys: Set<String>
}
