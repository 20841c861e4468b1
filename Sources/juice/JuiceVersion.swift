/// The version `juice --version` prints: the juice-testkit wheel's version (python/pyproject.toml), which
/// the Python package compares with its own before it runs a `juice` it found (python/tests check that
/// the three agree).
enum JuiceVersion {
    static let current = "0.1.0"
}
