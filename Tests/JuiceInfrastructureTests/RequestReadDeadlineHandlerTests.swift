import NIOCore
import NIOEmbedded
import Testing

@testable import JuiceInfrastructure

/// On an `EmbeddedChannel`, whose clock moves only when the test moves it: no wall-clock waits.
@Suite("RequestReadDeadlineHandler: a request's head and body must arrive within their deadlines")
struct RequestReadDeadlineHandlerTests {
    static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestReadDeadlineHandler(headTimeout: .seconds(5), bodyTimeout: .seconds(10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(string: text))
        _ = try channel.readInbound(as: ByteBuffer.self)
    }

    /// Sends `text` on a new channel, moves its clock by `wait`, and says whether it is still open.
    static func isOpen(after text: String, wait: TimeAmount) throws -> Bool {
        let channel = try Self.channel()
        try send(text, to: channel)
        channel.embeddedEventLoop.advanceTime(by: wait)
        defer { _ = try? channel.finish() }
        return channel.isActive
    }

    @Test("an idle connection is left alone: waiting between requests is not this handler's concern")
    func idle() throws {
        #expect(try Self.isOpen(after: "\r\n", wait: .minutes(10)))
    }

    @Test("a head still incomplete at its deadline closes the connection, however its bytes trickle in")
    func slowHead() throws {
        let channel = try Self.channel()
        try Self.send("GET / HTTP/1.1\r\n", to: channel)
        for _ in 0..<4 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            try Self.send("X: y\r\n", to: channel)
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("a complete head without a body disarms the deadline")
    func completeHead() throws {
        #expect(try Self.isOpen(after: "GET / HTTP/1.1\r\nHost: a\r\n\r\n", wait: .minutes(1)))
    }

    @Test("a body short of its Content-Length at its deadline closes the connection; a whole one does not")
    func body() throws {
        let partial = "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345"
        #expect(try Self.isOpen(after: partial, wait: .seconds(9)))
        #expect(try !Self.isOpen(after: partial, wait: .seconds(10)))

        let whole = try Self.channel()
        try Self.send(partial, to: whole)
        try Self.send("67890", to: whole)
        whole.embeddedEventLoop.advanceTime(by: .minutes(1))
        #expect(whole.isActive)
        _ = try whole.finish()
    }

    @Test("Content-Length and chunked framing are read from the head's header lines")
    func framing() {
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\ncontent-LENGTH:  42 \r\n\r\n".utf8)) == (42, false))
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n".utf8)) == (0, true))
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n".utf8)) == (0, false))
        // A name is matched whole and in any case, never by a prefix, and a byte that only looks alike
        // under the 0x20 bit (`\r` against `-`) is no match.
        #expect(
            RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nX-Content-Length: 5\r\nContent-Lengths: 6\r\n\r\n".utf8)) == (0, false))
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nCONTENT\rLENGTH: 7\r\n\r\n".utf8)) == (0, false))
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nContent-Length:\t9\r\nHost: a\r\n\r\n".utf8)) == (9, false))
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n".utf8)) == (0, false))
        #expect(RequestReadDeadlineHandler.bodyFraming(Array("POST / HTTP/1.1\r\nContent-Length: \r\n\r\n".utf8)) == (0, false))
    }
}
