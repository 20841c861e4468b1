import AppleIDEmulator
import AsyncHTTPClient
import Hummingbird
import JuiceHTTP
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One conformance run: serves Apple on the kit's port, plays every case against the backend, and
/// reports a verdict per case.
///
/// ```swift
/// let report = try await ConformanceRun(options: options).run()
/// print(report.table())
/// exit(report.exitCode)
/// ```
public struct ConformanceRun: Sendable {
    public let options: ConformanceOptions
    private let logger: Logger
    private let onListening: @Sendable (Int) async -> Void

    /// Creates a run; `logger` receives the kit server's own log (default: none). `onListening` is
    /// called with the port once the kit's server accepts connections, and the first case plays when
    /// it returns: `juice conformance --ready-json` announces the kit there and waits for the backend.
    public init(
        options: ConformanceOptions, logger: Logger = Logger(label: "juice.conformance", factory: { _ in SwiftLogNoOpLogHandler() }),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.options = options
        self.logger = logger
        self.onListening = onListening
    }

    /// The cases this run plays, in order (``ConformanceOptions/caseIDs``, or every case).
    public var cases: [ConformanceCase] {
        ConformanceCatalog.all.filter { options.caseIDs?.contains($0.id) ?? true }
    }

    /// Runs every case.
    /// - Throws: ``ConformanceStartError`` when the run cannot start (bad options, the kit's port is
    ///   taken, the backend is unreachable or its start URL does not redirect to the kit).
    public func run() async throws(ConformanceStartError) -> ConformanceReport {
        if let problem = options.problems().first { throw ConformanceStartError(.invalidOptions, problem) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-conformance-\(RandomText.hex32())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let apple: AppleStage
        do {
            apple = try await AppleStage.open(options: options, directory: directory, logger: logger)
        } catch {
            throw ConformanceStartError(.kitUnavailable, "the kit could not prepare its keys and store: \(error)")
        }
        // The kit follows a browser's redirects itself where a case says so; its client never does.
        let http = OutgoingHTTP.makeClient()
        let result: Result<ConformanceReport, ConformanceStartError>
        do {
            result = .success(try await serving(apple: apple, http: http))
        } catch let error as ConformanceStartError {
            result = .failure(error)
        } catch {
            result = .failure(ConformanceStartError(.kitUnavailable, "the kit could not serve Apple on port \(options.port): \(error)"))
        }
        try? await http.shutdown()
        await apple.engine.close()
        return try result.get()
    }

    /// Serves the kit's Apple (the emulator's engine) while the cases play, and stops it afterwards.
    private func serving(apple: AppleStage, http: HTTPClient) async throws -> ConformanceReport {
        let (ready, readySignal) = AsyncStream<Bool>.makeStream()
        let app = Application(
            router: try apple.engine.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "juice-conformance"),
            onServerRunning: { _ in
                readySignal.yield(true)
                readySignal.finish()
            },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: ConformanceReport?.self) { group in
            group.addTask {
                do {
                    try await app.runService(gracefulShutdownSignals: [])
                } catch {
                    readySignal.finish()
                    throw error
                }
                return nil
            }
            var readiness = ready.makeAsyncIterator()
            guard await readiness.next() == true else {
                // The server could not start: its error is the reason.
                _ = try await group.next()
                throw ConformanceStartError(.kitUnavailable, "the kit's server on port \(options.port) did not start")
            }
            await onListening(options.port)
            group.addTask {
                try await self.playAll(apple: apple, http: http)
            }
            // The first to finish: the cases (a report), or the server failing to start or stopping early.
            while let finished = try await group.next() {
                if let report = finished {
                    group.cancelAll()
                    return report
                }
                throw ConformanceStartError(.kitUnavailable, "the kit's server on port \(options.port) stopped before the cases finished")
            }
            throw ConformanceStartError(.kitUnavailable, "the kit's server on port \(options.port) stopped")
        }
    }

    private func playAll(apple: AppleStage, http: HTTPClient) async throws -> ConformanceReport {
        let client = BackendClient(http: http, timeout: options.requestTimeout, appleOrigin: options.appleBaseURL)
        let player = CasePlayer(options: options, apple: apple, client: client)
        do {
            if options.startPath != nil {
                _ = try await player.startWeb()
            } else {
                try await player.reachNative()
            }
        } catch let problem as CasePlayer.StartProblem {
            throw ConformanceStartError(.backendUnusable, problem.reason)
        }
        var results: [ConformanceReport.CaseResult] = []
        var byID: [String: ConformanceReport.CaseResult] = [:]
        for conformanceCase in cases {
            try Task.checkCancellation()
            let observation = await player.play(conformanceCase, earlier: byID)
            let baselineID: String? =
                switch conformanceCase.flow {
                case .web: ConformanceCatalog.webBaseline
                case .native: ConformanceCatalog.nativeBaseline
                case .notification: ConformanceCatalog.notificationBaseline
                default: nil
                }
            let baseline = baselineID.flatMap { id in byID[id].map { (id, $0) } }
            let result = ConformanceReport.CaseResult(conformanceCase, observation: observation, baseline: baseline)
            results.append(result)
            byID[result.id] = result
        }
        return ConformanceReport(backend: options.backend, cases: results)
    }
}
