// swift-tools-version:6.2
import Foundation
import PackageDescription

// The libFuzzer targets, kept out of the root package so that its `swift build` never builds them.
// Built by `scripts/fuzz` with `-sanitize=fuzzer`; each executable hands its entry point to libFuzzer's
// driver (FuzzSupport's `runFuzzer`).
// The root package is this directory's parent; its identity is that directory's name, whatever the
// checkout is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let rootPackage = root.lastPathComponent.lowercased()

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "juice-fuzz",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fuzz-identity-token", targets: ["FuzzIdentityToken"]),
        .executable(name: "fuzz-form-post", targets: ["FuzzFormPost"]),
        .executable(name: "fuzz-notification", targets: ["FuzzNotification"]),
        .executable(name: "fuzz-configuration", targets: ["FuzzConfiguration"]),
        .executable(name: "fuzz-mail-from", targets: ["FuzzMailFrom"]),
        .executable(name: "fuzz-cbor", targets: ["FuzzCBOR"]),
    ],
    dependencies: [
        .package(path: root.path)
    ],
    targets: [
        // libFuzzer's driver entry point, declared for Swift.
        .target(name: "CLibFuzzer"),
        // The fixed key set, the clock, the driver and the bridge from libFuzzer's synchronous callback to async code.
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", .product(name: "AppleSignIn", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzIdentityToken",
            dependencies: ["FuzzSupport", .product(name: "AppleSignIn", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzFormPost",
            dependencies: ["FuzzSupport", .product(name: "AppleSignIn", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzNotification",
            dependencies: ["FuzzSupport", .product(name: "AppleSignIn", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzConfiguration",
            dependencies: [
                "FuzzSupport",
                .product(name: "AppleSignIn", package: rootPackage),
                .product(name: "JuiceServer", package: rootPackage),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzMailFrom",
            dependencies: ["FuzzSupport", .product(name: "AppleIDEmulator", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzCBOR",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: rootPackage)],
            swiftSettings: swiftSettings
        ),
    ]
)
