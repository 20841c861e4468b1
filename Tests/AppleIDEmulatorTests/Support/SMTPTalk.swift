import Foundation
import JuiceProcesses
import JuiceTestSupport

/// SMTP conversations driven by Python (stdlib only), run as a child process with a bounded wait:
/// raw command lines to see every reply, or `smtplib` to prove an ordinary client works.
enum SMTPTalk {
    /// One reply: code and text (continuation lines joined by newlines).
    struct Reply: Sendable, CustomStringConvertible {
        let code: Int
        let text: String
        var description: String { "\(code) \(text)" }
    }

    /// What a raw conversation saw.
    struct Transcript: Sendable {
        let replies: [Reply]
        /// Whether the server closed the connection by the end.
        let closed: Bool

        /// The reply to the `index`th step (0 is the greeting).
        subscript(_ index: Int) -> Reply { replies.indices.contains(index) ? replies[index] : Reply(code: 0, text: "(no reply)") }
    }

    /// A step of a raw conversation.
    enum Step: Sendable {
        /// A command line (CRLF added); reads one reply.
        case command(String)
        /// Bytes sent as they are; reads no reply.
        case raw(String)
        /// Message text after `DATA` (lines dot-stuffed by the caller), then `.`; reads one reply.
        case message(String)
        /// Waits up to `seconds` for a reply or the connection to close.
        case await(Double)
        /// Waits `seconds` without reading (a client that thinks between commands).
        case pause(Double)
        /// Closes the socket at once (a client that vanishes).
        case vanish
    }

    static let script = #"""
        import json, socket, sys, smtplib, time
        request = json.load(sys.stdin)
        port = request["port"]
        if "smtplib" in request:
            job = request["smtplib"]
            try:
                with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
                    client.ehlo("python.test")
                    features = {"size": client.has_extn("size"), "8bitmime": client.has_extn("8bitmime")}
                    refused = client.sendmail(job["from"], job["to"], job["message"].encode("utf-8"))
                    print(json.dumps({"ok": True, "refused": {k: [v[0], v[1].decode()] for k, v in refused.items()}, "features": features}))
            except smtplib.SMTPRecipientsRefused as error:
                print(json.dumps({"ok": False, "code": list(error.recipients.values())[0][0], "text": list(error.recipients.values())[0][1].decode()}))
            except smtplib.SMTPResponseException as error:
                print(json.dumps({"ok": False, "code": error.smtp_code, "text": error.smtp_error.decode()}))
            except Exception as error:
                print(json.dumps({"ok": False, "exception": repr(error)}))
            sys.exit(0)
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        stream = sock.makefile("rb")
        replies, closed = [], False
        def read_reply(timeout=30):
            global closed
            sock.settimeout(timeout)
            lines = []
            try:
                while True:
                    line = stream.readline()
                    if not line:
                        closed = True
                        break
                    lines.append(line.decode("utf-8", "replace").rstrip("\r\n"))
                    if len(line) < 4 or line[3:4] != b"-":
                        break
            except (socket.timeout, ConnectionResetError):
                pass
            if lines:
                replies.append({"code": int(lines[0][:3]), "text": "\n".join(l[4:] for l in lines)})
        read_reply()
        for step in request["steps"]:
            kind, value = step
            if kind == "command":
                sock.sendall(value.encode("utf-8") + b"\r\n"); read_reply()
            elif kind == "raw":
                sock.sendall(value.encode("utf-8"))
            elif kind == "message":
                sock.sendall(value.encode("utf-8") + b"\r\n.\r\n"); read_reply()
            elif kind == "await":
                read_reply(value)
                if not closed:
                    try:
                        sock.settimeout(0.5)
                        closed = stream.read(1) == b""
                    except Exception:
                        pass
            elif kind == "pause":
                time.sleep(value)
            elif kind == "vanish":
                sock.close(); closed = True; break
        if not closed:
            try:
                sock.settimeout(1)
                closed = stream.read(1) == b""
            except Exception:
                pass
        print(json.dumps({"replies": replies, "closed": closed}))
        """#

    /// Runs a raw conversation against the relay on `port`.
    static func converse(port: Int, _ steps: [Step]) async throws -> Transcript {
        let encoded: [[Any]] = steps.map { step in
            switch step {
            case .command(let line): ["command", line]
            case .raw(let text): ["raw", text]
            case .message(let text): ["message", text]
            case .await(let seconds): ["await", seconds]
            case .pause(let seconds): ["pause", seconds]
            case .vanish: ["vanish", 0]
            }
        }
        let output = try await run(["port": port, "steps": encoded])
        let replies = (output["replies"] as? [[String: Any]] ?? []).map {
            Reply(code: $0["code"] as? Int ?? 0, text: $0["text"] as? String ?? "")
        }
        return Transcript(replies: replies, closed: output["closed"] as? Bool ?? false)
    }

    /// Sends a message with Python's `smtplib`; the result holds `ok`, or `code` and `text` of the refusal.
    static func sendmail(port: Int, from: String, to: [String], message: String) async throws -> [String: Any] {
        try await run(["port": port, "smtplib": ["from": from, "to": to, "message": message]])
    }

    /// Runs a Python `script` that reads `request` as JSON on its standard input and prints one JSON object.
    static func python(_ script: String, _ request: [String: Any]) async throws -> [String: Any] {
        try await run(request, script: script)
    }

    private static func run(_ request: [String: Any], script: String = script) async throws -> [String: Any] {
        let run = try await SpawnedChild.python(
            ["-c", script], input: Array(try JSONSerialization.data(withJSONObject: request)), deadline: .seconds(90))
        guard !run.timedOut else { throw SMTPTalkError(message: "python did not finish within 90 s") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any] else {
            throw SMTPTalkError(message: "python printed no JSON: \(run.outputText.prefix(500)) \(run.errorText.suffix(1000))")
        }
        return object
    }
}

struct SMTPTalkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
