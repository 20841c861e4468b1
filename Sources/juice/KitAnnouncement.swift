import AppleSignInConformance
import Foundation

/// What `juice conformance` does once its kit listens: prints the ready line (`--ready-json`, the
/// shape `juice emulator --ready-json` prints) and waits for the backend (`--wait-for-backend`).
struct KitAnnouncement: Sendable {
    let readyJSON: Bool
    let issuer: String?
    /// Seconds; 0 does not wait.
    let waitForBackend: Int

    func listening(_ options: ConformanceOptions, port: Int) async {
        if readyJSON {
            let line = EmulatorReadyLine.text(host: "127.0.0.1", publicURL: nil, issuer: issuer, port: port, smtpPort: nil)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        guard waitForBackend > 0 else { return }
        await KitBackendWait(
            backend: options.backend, path: options.startPath ?? options.nativePath ?? "/",
            expectsRedirect: options.startPath != nil && options.startMethod == .get, deadline: .seconds(waitForBackend)
        ).wait(kitURL: options.appleBaseURL)
    }
}
