import Foundation
import Hummingbird
import JuiceEncodings

extension Request {
    /// The body decoded from JSON.
    /// - Throws: ``ServerError`` 415 `unsupported_media_type` (not `application/json`), 413
    ///   `payload_too_large` (over `limit` bytes), 400 `invalid_request` (not the expected JSON).
    func decodeJSON<Body: Decodable>(_ type: Body.Type, limit: Int = 64 * 1024) async throws -> Body {
        try requireJSONMediaType()
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch {
            throw ServerError(.payloadTooLarge, status: .contentTooLarge, "the request body is larger than \(limit / 1024) KiB")
        }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw ServerError.invalidRequest("the JSON body is not valid: \(Self.describe(error))")
        } catch {
            throw ServerError.invalidRequest("the JSON body is not valid")
        }
    }

    /// Refuses a body that does not say it is JSON, before any of it is read.
    /// - Throws: ``ServerError`` 415 `unsupported_media_type`.
    func requireJSONMediaType() throws(ServerError) {
        let mediaType = MediaType.essence(of: headers[.contentType])
        guard mediaType == "application/json" else {
            throw ServerError(.unsupportedMediaType, status: .unsupportedMediaType, "send the body as application/json")
        }
    }

    /// Where a decoding error is, without the offending value (it might be a password).
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return keys.isEmpty ? "the document" : "\"\(keys.prefix(100))\""
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)) lacks \"\(key.stringValue.prefix(64))\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "it is not JSON" : "\(path(context)) is malformed"
        @unknown default: return "it could not be read"
        }
    }
}
