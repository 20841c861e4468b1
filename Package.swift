// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "juice",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AppleSignIn", targets: ["AppleSignIn"]),
        .library(name: "AppleIDEmulator", targets: ["AppleIDEmulator"]),
        .library(name: "JuiceServer", targets: ["JuiceServer"]),
        .library(name: "JuiceClient", targets: ["JuiceClient"]),
        .library(name: "AppleSignInConformance", targets: ["AppleSignInConformance"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .executable(name: "juice", targets: ["juice"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // Base64URL, hex and constant-time comparison: no protocol logic; swift-crypto for the SHA-256 digests.
        .target(
            name: "JuiceEncodings",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // Juice's outgoing HTTP: clients that never follow redirects, and an exchange bounded by one
        // deadline (head and body) and a body size limit. No protocol logic.
        .target(
            name: "JuiceHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The one way a program is started (SpawnedChild: posix_spawn, a clean signal mask, reaped by a
        // thread of its own): by the CLI, the client's browser opener and the tests. No dependencies.
        .target(
            name: "JuiceProcesses",
            swiftSettings: swiftSettings
        ),
        // The system's SQLite C library (Debian: libsqlite3-dev), which the SQLite store runs on with
        // its prepared statements kept (sqlite-nio prepares every statement anew and keeps its own copy
        // of SQLite internal). scripts/package links it statically.
        .systemLibrary(
            name: "CSQLite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // A connection to a SQLite file through CSQLite3 that keeps the statements it compiles: no
        // SQLKit, no NIO. A module of its own because sqlite-nio's copy of SQLite declares the same C
        // structs, and clang refuses both headers in one module (JuiceInfrastructure imports sqlite-kit).
        .target(
            name: "JuiceSQLite",
            dependencies: ["CSQLite3"],
            swiftSettings: swiftSettings
        ),
        // What the emulator and the server both run on and that is not the protocol: the SQLite
        // store, the async lock, page templates and language negotiation.
        .target(
            name: "JuiceInfrastructure",
            dependencies: [
                "JuiceSQLite",
                "JuiceEncodings",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppleSignIn",
            dependencies: [
                "JuiceHTTP",
                "JuiceEncodings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The WebAuthn relying party's verification (strict CBOR, COSE keys, authenticator data,
        // attestation, the two ceremonies): pure functions, no HTTP, no database.
        .target(
            name: "WebAuthn",
            dependencies: [
                "JuiceEncodings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppleIDEmulator",
            dependencies: [
                "JuiceHTTP",
                "JuiceEncodings",
                "JuiceInfrastructure",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // Sign in with Apple JS, compiled into the binary (served at Apple's CDN path).
            resources: [.embedInCode("Resources/appleid.auth.js")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "JuiceServer",
            dependencies: [
                "JuiceHTTP",
                "AppleSignIn",
                "WebAuthn",
                "JuiceEncodings",
                "JuiceInfrastructure",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // docs/openapi.yaml (linked here) compiled into the binary: served at /openapi.yaml with no
            // file to find at run time.
            // The list of common passwords, read once at run time (Resources/common-passwords.NOTICE.md
            // says where it comes from).
            // The passkey providers' names by AAGUID, compiled in (Resources/passkey-providers.NOTICE.md).
            exclude: ["Resources/common-passwords.NOTICE.md", "Resources/passkey-providers.NOTICE.md", "Resources/passkey-providers.LICENSE"],
            resources: [
                .embedInCode("Resources/openapi.yaml"), .copy("Resources/common-passwords.txt"), .embedInCode("Resources/passkey-providers.tsv"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "JuiceClient",
            dependencies: [
                "JuiceHTTP",
                "AppleSignIn",
                "JuiceEncodings",
                "JuiceProcesses",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppleSignInConformance",
            dependencies: [
                "JuiceHTTP",
                "AppleIDEmulator",
                "JuiceEncodings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "juice",
            dependencies: [
                "JuiceHTTP",
                "AppleSignIn",
                "JuiceEncodings",
                "AppleIDEmulator",
                "AppleSignInConformance",
                "JuiceServer",
                "JuiceClient",
                "JuiceProcesses",
                "JuiceInfrastructure",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What several test targets need: loopback ports, services run for the length of a test, the one
        // HTTP helper (TestHTTP, answers read whole), captured logs, spawned processes and their ready lines.
        // It links none of the product's modules but the encodings and the process spawner, so a module's
        // tests link only what they test.
        .target(
            name: "JuiceTestSupport",
            dependencies: [
                "JuiceProcesses",
                "JuiceEncodings",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/JuiceTestSupport",
            // What the selenium scripts share; BrowserTools puts this directory on their PYTHONPATH.
            exclude: ["juice_browser.py"],
            swiftSettings: swiftSettings
        ),
        // The one emulator launcher (EmulatorLauncher): the emulator in this process on a loopback port,
        // handed over once it listens; for every test that needs Apple without needing the server.
        .target(
            name: "JuiceEmulatorSupport",
            dependencies: [
                "JuiceTestSupport",
                "AppleIDEmulator",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/JuiceEmulatorSupport",
            swiftSettings: swiftSettings
        ),
        // The live stack (Stack/): the real server and the real emulator on loopback ports, SQLite or
        // PostgreSQL, and the test clock with the toolkit's and the emulator's views: for the tests of the
        // server, the client, the emulator, the kit and the CLI.
        .target(
            name: "JuiceStackSupport",
            dependencies: [
                "JuiceTestSupport",
                "JuiceEmulatorSupport",
                "JuiceEncodings",
                "AppleSignIn",
                "AppleIDEmulator",
                "JuiceServer",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/JuiceStackSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppleSignInTests",
            dependencies: [
                "JuiceTestSupport",
                "JuiceEncodings",
                "AppleSignIn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn",
                "JuiceEncodings",
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceHTTPTests",
            dependencies: [
                "JuiceTestSupport",
                "JuiceHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceEncodingsTests",
            dependencies: ["JuiceTestSupport", "JuiceEncodings"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceProcessesTests",
            dependencies: ["JuiceProcesses"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceSQLiteTests",
            dependencies: ["JuiceSQLite"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceInfrastructureTests",
            dependencies: [
                "JuiceTestSupport",
                "JuiceInfrastructure",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppleIDEmulatorTests",
            dependencies: [
                "JuiceStackSupport",
                "JuiceEmulatorSupport",
                "JuiceTestSupport",
                "JuiceProcesses",
                "JuiceEncodings",
                "JuiceInfrastructure",
                "AppleIDEmulator",
                "AppleSignIn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceServerTests",
            dependencies: [
                "JuiceStackSupport",
                "JuiceEmulatorSupport",
                "JuiceTestSupport",
                "JuiceProcesses",
                "JuiceEncodings",
                "JuiceServer",
                "WebAuthn",
                "JuiceInfrastructure",
                "AppleIDEmulator",
                "AppleSignIn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceClientTests",
            dependencies: [
                "JuiceStackSupport",
                "JuiceTestSupport",
                "JuiceEncodings",
                "JuiceClient",
                "AppleIDEmulator",
                "JuiceServer",
                "AppleSignIn",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppleSignInConformanceTests",
            dependencies: [
                "AppleIDEmulator",
                "JuiceEmulatorSupport",
                "JuiceTestSupport",
                "JuiceProcesses",
                "AppleSignInConformance",
                "AppleSignIn",
                "JuiceEncodings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "JuiceCLITests",
            dependencies: [
                "AppleIDEmulator",
                "JuiceTestSupport",
                "JuiceProcesses",
                "juice",
                "JuiceInfrastructure",
                "JuiceEncodings",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
