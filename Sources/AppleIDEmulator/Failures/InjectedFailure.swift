/// One failure in force, as `GET /emulator/admin/failures` lists it.
struct InjectedFailure: Sendable, Hashable, Encodable {
    /// Its id (for `DELETE /emulator/admin/failures?id=`), unique until a reset.
    let id: Int
    let kind: FailureKind
    /// The client id it applies to (a bundle id or Services ID); `nil`: every client.
    let clientID: String?
    /// Requests (or tokens, or notifications) it still applies to; `nil`: until cleared.
    var remaining: Int?
    /// The delay of `token_delay` and `keys_delay`, in seconds.
    let delaySeconds: Double?
    /// The status of `token_server_error` and `keys_server_error`.
    let status: Int?
    /// The domain of `relay_domain`.
    let relayDomain: RelayDomain?

    enum CodingKeys: String, CodingKey {
        case id, kind, remaining, status
        case clientID = "client_id"
        case delaySeconds = "delay_seconds"
        case relayDomain = "relay_domain"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(remaining, forKey: .remaining)
        try container.encodeIfPresent(delaySeconds, forKey: .delaySeconds)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(relayDomain?.rawValue, forKey: .relayDomain)
    }

    /// Whether it applies to a request of `clientID` (a global failure applies to every request).
    func applies(to clientID: String?) -> Bool {
        self.clientID == nil || self.clientID == clientID
    }
}
