import AsyncHTTPClient
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an outgoing request got no complete answer. Its ``description`` is short, balanced and free of
/// secrets: it is what the emulator's delivery log stores and what errors quote.
package enum OutgoingHTTPFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole exchange (connection, head and body together) took longer than its deadline.
    case deadlineExceeded(Duration)
    /// The answer's head came (with this status) but its body was larger than the limit; it was not read.
    case bodyTooLarge(status: Int, limit: Int)
    /// The peer refused the connection.
    case connectionRefused
    /// The connection could not be made in time.
    case connectTimeout
    /// The TLS handshake failed.
    case tlsFailure
    /// The connection closed before a complete answer.
    case connectionClosed
    /// The request was cancelled (the component is shutting down).
    case cancelled
    /// Anything else, named by the error's type only (its text may quote what the peer sent).
    case other(String)

    package var description: String {
        switch self {
        case .deadlineExceeded(let deadline): "no complete answer within \(Self.seconds(deadline)) (head and body)"
        case .bodyTooLarge(let status, let limit): "HTTP \(status) with a body over \(limit) bytes (not read)"
        case .connectionRefused: "connection refused"
        case .connectTimeout: "connect timeout"
        case .tlsFailure: "TLS handshake failed"
        case .connectionClosed: "connection closed before a complete answer"
        case .cancelled: "cancelled"
        case .other(let name): "transport error (\(name))"
        }
    }

    /// The HTTP status, when the answer's head arrived before the failure.
    package var status: Int? {
        if case .bodyTooLarge(let status, _) = self { return status }
        return nil
    }

    /// The failure `error` (thrown by AsyncHTTPClient or NIO) stands for.
    package static func classify(_ error: any Error, deadline: Duration) -> OutgoingHTTPFailure {
        if let failure = error as? OutgoingHTTPFailure { return failure }
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .deadlineExceeded(deadline)
            case .connectTimeout: return .connectTimeout
            case .cancelled: return .cancelled
            case .remoteConnectionClosed: return .connectionClosed
            default: return .other("HTTPClientError")
            }
        }
        if let error = error as? NIOConnectionError {
            // Every address was tried; the first one's error says why.
            if let first = error.connectionErrors.first?.error { return classify(first, deadline: deadline) }
            if error.dnsAAAAError != nil || error.dnsAError != nil { return .other("name resolution failed") }
            return .other("NIOConnectionError")
        }
        if let error = error as? IOError {
            return error.errnoCode == ECONNREFUSED ? .connectionRefused : .other("IOError errno \(error.errnoCode)")
        }
        if let error = error as? ChannelError {
            if case .connectTimeout = error { return .connectTimeout }
            if case .ioOnClosedChannel = error { return .connectionClosed }
            return .other("ChannelError")
        }
        if "\(type(of: error))".contains("SSL") || "\(type(of: error))".contains("TLS") { return .tlsFailure }
        return .other("\(type(of: error))")
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
