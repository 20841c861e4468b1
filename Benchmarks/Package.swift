// swift-tools-version:6.1
import PackageDescription

// ordo-one/benchmark targets for the toolkit's hot paths, in a package of their own so that the root
// package's `swift build` and `swift test` never build them. Run: `cd Benchmarks && swift package benchmark`
// (docs/performance.md). They reach the toolkit through its public API only.
let package = Package(
    name: "JuiceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "juice", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "AppleSignInBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AppleSignIn", package: "juice"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/AppleSignInBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
