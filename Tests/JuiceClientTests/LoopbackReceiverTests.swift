import AsyncHTTPClient
import Foundation
import JuiceClient
import JuiceTestSupport
import NIOHTTP1
import Synchronization
import Testing

@Suite("Loopback receiver")
struct LoopbackReceiverTests {
    let receiver = LoopbackReceiver(timeout: .seconds(120))
    /// Follows redirects, as a browser does.
    static let http = TestHTTP(client: .shared, timeout: .seconds(10))

    @Test("accepts one GET with a query, answers a close-this-window page, returns the parameters")
    func getWithQuery() async throws {
        let result = try await runReceiver(receiver) { address in
            #expect(address.host == "127.0.0.1")
            #expect(address.path == "/callback")
            #expect(address.portNumber > 0)
            let answer = try await Self.http.get(address.absoluteString + "?code=c%2B1&state=s+1&user=%7B%7D")
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "content-type") == "text/html; charset=utf-8")
            #expect(answer.headers.first(name: "cache-control") == "no-store")
            #expect(answer.body.contains("You can close this window"))
        }
        let callback = try #require(result.success)
        #expect(callback.method == "GET")
        #expect(callback.fields.map(\.0) == ["code", "state", "user"])
        #expect(callback["code"] == "c+1")
        #expect(callback["state"] == "s 1")
        #expect(callback["user"] == "{}")
        #expect(!"\(callback)".contains("c+1"))
    }

    @Test("accepts a form_post POST")
    func formPost() async throws {
        let result = try await runReceiver(receiver) { address in
            let answer = try await Self.http.postForm(address.absoluteString, [("state", "xyz"), ("code", "abc"), ("id_token", "a.b.c")])
            #expect(answer.status == 200)
        }
        let callback = try #require(result.success)
        #expect(callback.method == "POST")
        #expect(callback["state"] == "xyz")
        #expect(callback["id_token"] == "a.b.c")
    }

    @Test("gives up with canceled when nobody answers before the timeout (injected clock)")
    func timeout() async throws {
        let clock = ManualClock()
        let result = try await runReceiver(LoopbackReceiver(timeout: .seconds(300), clock: clock)) { _ in
            _ = try await eventually { clock.sleeperCount > 0 ? true : nil }
            clock.advance(by: .seconds(299))
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .seconds(1))
        }
        #expect(result.failure?.code == .canceled)
        #expect(result.failure?.reason.contains("300") == true)
    }

    @Test("cancelling the waiting task is canceled")
    func taskCancellation() async throws {
        let listening = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            do throws(AuthorizationError) {
                _ = try await receiver.receive { _ in listening.continuation.yield() }
                return AuthorizationError.Code?.none
            } catch {
                return error.code
            }
        }
        var waiting = listening.stream.makeAsyncIterator()
        _ = await waiting.next()  // it listens and waits for the browser
        task.cancel()
        #expect(await task.value == .canceled)
    }

    @Test("refuses other paths, methods, hosts, media types and malformed parameters without ending the wait")
    func refusalsKeepWaiting() async throws {
        let result = try await runReceiver(receiver) { address in
            #expect(try await Self.http.get(address.origin + "/favicon.ico").status == 404)
            #expect(try await Self.http.get(address.origin + "/callback/extra?state=x").status == 404)
            #expect(try await Self.http.send(.PUT, address.absoluteString, body: Array("state=x".utf8)).status == 405)
            #expect(try await Self.http.send(.DELETE, address.absoluteString).status == 405)
            #expect(
                try await Self.http.get(address.absoluteString + "?state=x", headers: [("Host", "evil.example:\(address.portNumber)")]).status == 421)
            let json = try await Self.http.post(address.absoluteString, json: "{}", headers: [("Content-Type", "application/json")])
            #expect(json.status == 415)
            for query in ["state=%ZZ", "state=%FF", "state=%"] {
                let request = "GET /callback?\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(address.portNumber)\r\n\r\n"
                #expect(await rawExchange(port: address.portNumber, Array(request.utf8))?.hasPrefix("HTTP/1.1 400") == true, "\(query)")
            }
            #expect(try await Self.http.get(address.absoluteString + "?state=ok").status == 200)
        }
        #expect(try #require(result.success)["state"] == "ok")
    }

    @Test("refuses an oversized body or request target with 413 / 414 and keeps waiting")
    func oversized() async throws {
        let small = LoopbackReceiver(timeout: .seconds(120), maximumRequestSize: 1024)
        let result = try await runReceiver(small) { address in
            let big = String(repeating: "a", count: 4096)
            let body = try await Self.http.postForm(address.absoluteString, [("state", big)])
            #expect(body.status == 413)
            let target = try await Self.http.get(address.absoluteString + "?state=" + big)
            #expect(target.status == 414)
            // A chunked body that grows past the limit without announcing its length.
            let chunked =
                "POST /callback HTTP/1.1\r\nHost: 127.0.0.1:\(address.portNumber)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n800\r\n\(String(repeating: "b", count: 2048))\r\n0\r\n\r\n"
            #expect(await rawExchange(port: address.portNumber, Array(chunked.utf8))?.hasPrefix("HTTP/1.1 413") == true)
            let fine = try await Self.http.postForm(address.absoluteString, [("state", "fine")])
            #expect(fine.status == 200)
        }
        #expect(try #require(result.success)["state"] == "fine")
    }

    @Test("answers garbage with 400, survives a silent connection, and stays one-shot")
    func hostileConnections() async throws {
        let result = try await runReceiver(receiver) { address in
            let garbage = await rawExchange(port: address.portNumber, Array("NOT HTTP AT ALL\r\n\r\n".utf8))
            #expect(garbage?.hasPrefix("HTTP/1.1 400") == true)
            let noHost = await rawExchange(port: address.portNumber, Array("GET /callback?state=x HTTP/1.0\r\n\r\n".utf8))
            #expect(noHost?.contains(" 421 ") == true)
            // A connection that never sends anything does not block the real request.
            let silent = socketOpenedAndLeftIdle(port: address.portNumber)
            defer { silent.close() }
            let first = try await Self.http.get(address.absoluteString + "?state=first")
            #expect(first.status == 200)
        }
        #expect(try #require(result.success)["state"] == "first")
    }

    @Test("a second request after the accepted one is refused: the port is closed")
    func secondRequestRefused() async throws {
        let port = Mutex(0)
        let result = try await runReceiver(receiver) { address in
            port.withLock { $0 = address.portNumber }
            let one = try await Self.http.get(address.absoluteString + "?state=one")
            #expect(one.status == 200)
        }
        #expect(try #require(result.success)["state"] == "one")
        #expect(await rawExchange(port: port.withLock { $0 }, Array("GET /callback?state=two HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)) == nil)
    }

    @Test("of two racing requests exactly one is accepted")
    func racingRequests() async throws {
        let statuses = Mutex([Int]())
        let result = try await runReceiver(receiver) { address in
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask { (try? await Self.http.get(address.absoluteString + "?state=\(index)").status) ?? 0 }
                }
                for await status in group { statuses.withLock { $0.append(status) } }
            }
        }
        #expect(try #require(result.success)["state"] != nil)
        #expect(statuses.withLock { $0.filter { $0 == 200 }.count } == 1)
    }

    @Test("refuses a path without a leading slash")
    func badPath() async throws {
        await #expect(throws: AuthorizationError.failed("")) {
            _ = try await LoopbackReceiver(path: "callback").receive { _ in }
        }
    }
}
