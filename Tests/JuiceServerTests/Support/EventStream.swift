import AsyncHTTPClient
import Foundation
import JuiceStackSupport
import JuiceTestSupport
import NIOCore
import NIOHTTP1

/// A client of `GET /api/events`: reads server-sent events as they arrive, each wait bounded.
final class EventStream: Sendable {
    struct Event: Sendable, Hashable {
        var name: String
        var data: String
    }

    let status: Int
    let contentType: String?
    private let events: AsyncStream<Event>
    private let reader: Task<Void, Never>

    /// Opens the stream with `bearer` (none: no Authorization header).
    init(_ url: String, bearer: String?) async throws {
        var request = HTTPClientRequest(url: url)
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let response = try await TestHTTP.pool.execute(request, timeout: .seconds(120))
        status = Int(response.status.code)
        contentType = response.headers.first(name: "Content-Type")
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        self.events = events
        reader = Task {
            var pending = ""
            do {
                for try await chunk in response.body {
                    pending += String(buffer: chunk)
                    while let end = pending.range(of: "\n\n") {
                        let block = pending[..<end.lowerBound]
                        pending = String(pending[end.upperBound...])
                        var name = "message"
                        var data = ""
                        for line in block.split(separator: "\n") {
                            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                            if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                            if line.hasPrefix(":") { name = "comment" }
                        }
                        sink.yield(Event(name: name, data: data))
                    }
                }
            } catch {}
            sink.finish()
        }
    }

    deinit { reader.cancel() }

    /// The next event other than a comment, or `nil` when the stream ended or `timeout` passed.
    func next(timeout: Duration = .seconds(20)) async -> Event? {
        let events = events
        return await withTaskGroup(of: Event?.self) { group in
            group.addTask {
                for await event in events where event.name != "comment" { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Whether the stream has ended (within `timeout`).
    func ended(timeout: Duration = .seconds(20)) async -> Bool {
        let reader = reader
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await reader.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Stops reading.
    func close() { reader.cancel() }
}
