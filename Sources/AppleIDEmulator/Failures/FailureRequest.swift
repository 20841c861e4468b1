import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The body of `POST /emulator/admin/failures`, checked field by field:
/// `{"kind", "client_id"?, "count"?, "delay_seconds"?, "status"?, "relay_domain"?}`.
///
/// Every refusal is an `invalid_request` (400) naming the field and its bounds; nothing is added then.
struct FailureRequest: Sendable, Equatable {
    /// The 5xx answered when `status` is not given.
    static let defaultStatus = 503
    /// The longest injected delay, in seconds.
    static let maximumDelay: Double = 60
    /// The most requests a counted failure may apply to.
    static let maximumCount = 10_000
    /// The fields a request may have.
    static let fields: Set<String> = ["kind", "client_id", "count", "delay_seconds", "status", "relay_domain"]

    let kind: FailureKind
    let clientID: String?
    let count: Int?
    let delaySeconds: Double?
    let status: Int?
    let relayDomain: RelayDomain?

    /// The JSON as sent, typed: a wrong type is a decoding error that names the field.
    private struct Body: Decodable {
        let kind: String?
        let clientID: String?
        let count: Int?
        let delaySeconds: Double?
        let status: Int?
        let relayDomain: String?

        enum CodingKeys: String, CodingKey {
            case kind, count, status
            case clientID = "client_id"
            case delaySeconds = "delay_seconds"
            case relayDomain = "relay_domain"
        }

        /// A field that is there but of another type (or a number out of range for its type).
        struct WrongType: Error {
            let field: String
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func field<Value: Decodable>(_ key: CodingKeys, _ type: Value.Type) throws -> Value? {
                do {
                    return try container.decodeIfPresent(type, forKey: key)
                } catch {
                    throw WrongType(field: key.rawValue)
                }
            }
            kind = try field(.kind, String.self)
            clientID = try field(.clientID, String.self)
            count = try field(.count, Int.self)
            delaySeconds = try field(.delaySeconds, Double.self)
            status = try field(.status, Int.self)
            relayDomain = try field(.relayDomain, String.self)
        }
    }

    /// Reads and checks `body`; `isClient` says whether a client id is registered (a bundle id or Services
    /// ID; for `drop_notifications`, a bundle id).
    static func parse(_ body: Data, isClient: (FailureKind, String) async throws -> Bool) async throws -> FailureRequest {
        guard case .object(let object) = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            throw OAuthError.invalidRequest("the body must be a JSON object")
        }
        if let unknown = object.keys.filter({ !fields.contains($0) }).sorted().first {
            throw OAuthError.invalidRequest("unknown field \(unknown); the fields are \(fields.sorted().joined(separator: ", "))")
        }
        let sent: Body
        do {
            sent = try JSONDecoder().decode(Body.self, from: body)
        } catch let wrong as Body.WrongType {
            throw OAuthError.invalidRequest(
                "\(wrong.field) has the wrong type (kind, client_id, relay_domain: strings; count, status: integers; delay_seconds: a number)")
        } catch {
            throw OAuthError.invalidRequest("the body is not the expected JSON object")
        }
        guard let name = sent.kind else { throw OAuthError.invalidRequest("kind is required") }
        guard let kind = FailureKind(rawValue: name) else {
            throw OAuthError.invalidRequest(
                "unknown kind; the kinds are \(FailureKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let clientID = sent.clientID {
            guard kind.appliesPerClient else {
                throw OAuthError.invalidRequest("\(kind.rawValue) applies to every client: requests to it carry no client id")
            }
            guard !clientID.isEmpty, clientID.utf8.count <= 255, try await isClient(kind, clientID) else {
                throw OAuthError.invalidRequest(
                    kind == .dropNotifications ? "client_id must be a registered app's bundle id" : "client_id is not a registered client id")
            }
        }
        if let count = sent.count {
            guard kind.isCounted else { throw OAuthError.invalidRequest("count does not apply to \(kind.rawValue)") }
            guard (1...maximumCount).contains(count) else {
                throw OAuthError.invalidRequest("count must be an integer from 1 to \(maximumCount) (leave it out: until cleared)")
            }
        }
        if kind.isDelay {
            guard let delay = sent.delaySeconds, delay.isFinite, delay > 0, delay <= maximumDelay else {
                throw OAuthError.invalidRequest("delay_seconds must be a number of seconds over 0 and at most \(Int(maximumDelay))")
            }
        } else if sent.delaySeconds != nil {
            throw OAuthError.invalidRequest("delay_seconds applies to token_delay and keys_delay only")
        }
        if let status = sent.status {
            guard kind.isServerError else { throw OAuthError.invalidRequest("status applies to token_server_error and keys_server_error only") }
            guard (500...599).contains(status) else { throw OAuthError.invalidRequest("status must be from 500 to 599") }
        }
        var domain: RelayDomain? = nil
        if kind == .relayDomain {
            guard let name = sent.relayDomain, let known = RelayDomain(rawValue: name) else {
                throw OAuthError.invalidRequest(
                    "relay_domain must be one of \(RelayDomain.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            domain = known
        } else if sent.relayDomain != nil {
            throw OAuthError.invalidRequest("relay_domain applies to the kind relay_domain only")
        }
        return FailureRequest(
            kind: kind, clientID: sent.clientID, count: sent.count, delaySeconds: kind.isDelay ? sent.delaySeconds : nil,
            status: kind.isServerError ? sent.status ?? defaultStatus : nil, relayDomain: domain)
    }
}
