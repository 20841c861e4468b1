import AppleIDEmulator
import Foundation

/// A seed file (the emulator configuration's shape: teams, apps, Apple IDs; no `admin_token`), as
/// `juice emulator --seed` and `juice serve --emulator-seed` read it.
enum EmulatorSeedFile {
    /// `configuration` with the seed at `path` merged in and the result validated as a whole.
    /// - Throws: ``CLIError`` naming the file and every problem.
    static func merge(_ path: String, into configuration: EmulatorConfiguration) throws(CLIError) -> EmulatorConfiguration {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { throw CLIError("cannot read the seed file \(path)") }
        do {
            let seed = try EmulatorConfiguration(seedJSON: data)
            let merged = configuration.merging(seed)
            try merged.validate(seededWith: seed)
            return merged
        } catch {
            throw CLIError("\(path): \(error.reason)")
        }
    }
}
