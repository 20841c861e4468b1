import JuiceEncodings
import JuiceInfrastructure

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CapturedRequest {
    /// The values of one row of the requests page (`EmulatorPageTemplates.requests`).
    func pageValues(language: PageLanguage) -> [String: Any] {
        var values: [String: Any] = [
            "id": id, "received": Date(timeIntervalSince1970: receivedAt).formatted(.iso8601), "method": method, "path": path,
            "client_id": clientID ?? "", "grant_type": grantType ?? "", "redirect_uri": redirectURI ?? "", "status": status,
        ]
        if let error { values["error"] = error }
        if let clientSecret {
            var secret: [String: Any] = [
                "header": clientSecret.header.map(Self.compactJSON) ?? "?", "claims": clientSecret.claims.map(Self.compactJSON) ?? "?",
            ]
            if let lifetime = clientSecret.lifetime {
                secret["lifetime"] = EmulatorPageRenderer.string("requests_lifetime", language, Self.describe(seconds: lifetime))
            }
            values["secret"] = secret
        }
        return values
    }

    /// `value` as one line of JSON, keys sorted.
    private static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    /// `seconds` in days, hours, minutes or seconds, whichever is the largest whole unit (`179 d`, `3600 s` → `1 h`).
    static func describe(seconds: Int64) -> String {
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("min", 60)] where seconds >= size && seconds % size == 0 {
            return "\(seconds / size) \(unit)"
        }
        return "\(seconds) s"
    }
}

extension CapturedClientSecret {
    /// `exp - iat` in seconds, when both are whole numbers (Apple refuses a secret that lives over six months).
    var lifetime: Int64? {
        guard case .object(let claims) = claims, case .integer(let issuedAt) = claims["iat"], case .integer(let expiry) = claims["exp"] else {
            return nil
        }
        let (lifetime, overflow) = expiry.subtractingReportingOverflow(issuedAt)
        return overflow ? nil : lifetime
    }
}
