import Foundation
import NIOCore

/// Splits a `text/event-stream` body into events (`event:` and `data:` fields, blank-line separated;
/// comments ignored), whatever the chunk boundaries.
struct ServerSentEventParser {
    struct Event: Sendable, Hashable {
        var name: String
        var data: String
    }

    private var pending = ""
    /// A stream that never sends a blank line must not grow without bound.
    static let maximumEventSize = 64 * 1024

    /// The events completed by `chunk`.
    mutating func feed(_ chunk: ByteBuffer) -> [Event] {
        pending += String(buffer: chunk).replacingOccurrences(of: "\r\n", with: "\n")
        var events: [Event] = []
        while let end = pending.range(of: "\n\n") {
            let block = pending[..<end.lowerBound]
            pending = String(pending[end.upperBound...])
            var name = "message"
            var data: [Substring] = []
            var hasField = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
                let (field, value) = Self.field(line)
                switch field {
                case "event":
                    name = String(value)
                    hasField = true
                case "data":
                    data.append(value)
                    hasField = true
                default: continue
                }
            }
            if hasField { events.append(Event(name: name, data: data.joined(separator: "\n"))) }
        }
        if pending.utf8.count > Self.maximumEventSize { pending = "" }
        return events
    }

    private static func field(_ line: Substring) -> (Substring, Substring) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (line[..<colon], value)
    }
}
