import AppleSignIn
import Foundation
import FuzzSupport
import JuiceServer

// Input: one flags byte, then the rest.
// - flags % 3 == 0: the rest is a toolkit `config.json` for `AppleSignInConfiguration(json:baseDirectory:)`;
// - flags % 3 == 1: the rest is a server `juice.json`, written to a file and loaded with
//   `ServerConfiguration.load(file:environment:…)`;
// - flags % 3 == 2: the rest is lines `SETTING=value`, loaded as the `JUICE_SETTING` environment.
// The base directory holds `AuthKey_FUZZKEY001.p8` and `refresh.key`, so seeds may name them.
// A configuration is either loaded or refused with at least one problem, each naming its field.

let directory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("juice-fuzz-configuration-\(getpid())")
    do {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(FuzzTeamKey.pem.utf8).write(to: url.appendingPathComponent("AuthKey_FUZZKEY001.p8"))
        try Data("+wj+Mshkb3YM81BZyt8yfJxt05MGlC1W71EtQwJzB6g=\n".utf8).write(to: url.appendingPathComponent("refresh.key"))
    } catch {
        fatalError("cannot prepare \(url.path): \(error)")
    }
    return url
}()
let configurationFile = directory.appendingPathComponent("juice.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let rest = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    do {
        switch data[0] % 3 {
        case 0:
            _ = try AppleSignInConfiguration(json: rest, baseDirectory: directory)
        case 1:
            guard (try? rest.write(to: configurationFile)) != nil else { fatalError("cannot write \(configurationFile.path)") }
            let loaded = try ServerConfiguration.load(file: configurationFile, environment: [:], dataDirectory: directory)
            check(loaded)
        default:
            var environment: [String: String] = [:]
            for line in String(decoding: rest, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                environment["JUICE_" + parts[0].uppercased()] = parts.count > 1 ? String(parts[1]) : ""
            }
            let loaded = try ServerConfiguration.load(file: nil, environment: environment, dataDirectory: directory)
            check(loaded)
        }
    } catch {
        fuzzRequire(!error.problems.isEmpty, "a configuration refused without a problem")
    }
    return 0
}

/// What holds for every configuration the server accepts.
func check(_ configuration: ServerConfiguration) {
    fuzzRequire((0...65535).contains(configuration.port), "accepted port \(configuration.port)")
    fuzzRequire(configuration.sessionLifetime >= 60, "accepted session lifetime \(configuration.sessionLifetime)")
}
