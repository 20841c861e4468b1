import Foundation
import JuiceEncodings

extension CasePlayer {
    func playNative(_ scenario: Scenario) async throws -> Observation {
        guard let nativePath = options.nativePath else { return .skipped("no --native endpoint") }
        if scenario.keysUnavailable {
            // First a sign-in with Apple's keys up, so a backend that caches them has them; then Apple's key
            // endpoint fails and a second, fresh credential must still sign in.
            let warmUp = await post(try await nativeBody(Scenario()), to: nativePath)
            guard warmUp.isAccepted else {
                return .inconclusive("the sign-in with Apple's keys up was not accepted (\(warmUp.detail)): nothing to compare")
            }
            let json = try await nativeBody(Scenario())
            await authority.setKeysUnavailable(true)
            let observation = await post(json, to: nativePath)
            await authority.setKeysUnavailable(false)
            return observation
        }
        let json = try await nativeBody(scenario)
        if scenario.issuerDrift {
            let readsBefore = await authority.discoveryReads
            await authority.driftIssuer(to: Self.driftedIssuer)
            let observation = await post(json, to: nativePath)
            await authority.driftIssuer(to: nil)
            let read = await authority.discoveryReads > readsBefore
            return observation.appending(
                read
                    ? "; the backend read discovery (issuer \(Self.driftedIssuer)) during the sign-in"
                    : "; the backend never read discovery: its issuer is configured, which drift cannot break")
        }
        if scenario.replayed {
            let first = await post(json, to: nativePath)
            guard first.isAccepted else {
                return .inconclusive("the first sign-in with this credential was not accepted (\(first.detail)): a replay means nothing")
            }
        }
        if scenario.appleStalls {
            let bound = options.appleStallBound
            let observation = await post(json, to: nativePath, appleDown: true, client: client.waiting(bound))
            guard case .timeout = observation else { return observation }
            return .timeout("\(nativePath) did not answer within \(bound) while Apple's token endpoint stalled")
        }
        return await post(json, to: nativePath, appleDown: scenario.appleUnavailable)
    }

    /// A fresh native credential (a new nonce from the backend, a new code) in the body the backend takes.
    private func nativeBody(_ scenario: Scenario) async throws -> Data {
        let rawNonce = try await nativeNonce()
        // A Work & School account without email is an Apple ID of its own, never seen before.
        let subject = scenario.withoutEmail || scenario.thirdAudience ? RandomText.subject() : nativeSubject
        let email = mainEmail.replacingOccurrences(of: "ada.", with: "ada.native.")
        var content = TokenMint.IdentityContent(
            subject: subject, audience: scenario.thirdAudience ? thirdAudience : options.appAudience, nonce: sha256Hex(rawNonce),
            email: scenario.withoutEmail ? nil : email,
            realUserStatus: 2)
        let code = await authority.issueCode(
            clientID: options.appAudience, redirectURI: nil, content: content, defect: scenario.defect, refused: scenario.codeRefusedByApple,
            unavailable: scenario.appleUnavailable, stalls: scenario.appleStalls)
        content.code = code
        let token = try await TokenMint(issuer: options.effectiveIssuer, now: Date()).identityToken(
            content, defect: scenario.defect, keys: authority.keys)
        let body = options.nativeBody.fields(
            token: token, code: scenario.withoutCode ? nil : code, rawNonce: rawNonce,
            newUser: scenario.person == .newUser ? (email, "Ada", "Lovelace") : nil)
        return try JSONEncoder().encode(body)
    }

    /// The issuer Apple's discovery document has named since June 2025, while tokens keep `https://appleid.apple.com`.
    static let driftedIssuer = "https://account.apple.com"

    /// Posts a native body; the observation of the answer. While Apple is down (`appleDown`), a 502, 503 or
    /// 504 is a clean refusal: the backend reports its upstream's outage as a gateway error, not a crash of its own.
    private func post(_ json: Data, to nativePath: String, appleDown: Bool = false, client: BackendClient? = nil) async -> Observation {
        do {
            let answer = try await (client ?? self.client).postJSON(options.backend + nativePath, json)
            if appleDown, [502, 503, 504].contains(answer.status) {
                return .refused("\(nativePath) answered HTTP \(answer.status): Apple's outage, reported as a gateway error")
            }
            return .api(answer, what: nativePath)
        } catch {
            return .failure(error, what: nativePath)
        }
    }

    /// An API-only run's start: the native endpoint answers HTTP at all (any status), or the run cannot start.
    func reachNative() async throws {
        guard let nativePath = options.nativePath else { throw StartProblem(reason: Self.noWebStart) }
        do {
            _ = try await client.postJSON(options.backend + nativePath, Data("{}".utf8))
        } catch {
            throw StartProblem(reason: Observation.failure(error, what: nativePath).detail)
        }
    }

    /// The raw nonce: the backend's own (`--native-nonce`) or a fresh one.
    private func nativeNonce() async throws -> String {
        guard let path = options.nativeNoncePath else { return RandomText.token() }
        let answer: BackendClient.Answer
        do {
            answer = try await client.postJSON(options.backend + path, Data("{}".utf8))
        } catch {
            throw StepFailure(observation: .failure(error, what: path))
        }
        struct NonceBody: Decodable { let nonce: String }
        guard (200..<300).contains(answer.status), let nonce = try? JSONDecoder().decode(NonceBody.self, from: Data(answer.body.utf8)).nonce,
            !nonce.isEmpty
        else {
            throw StepFailure(observation: .inconclusive("\(path) answered HTTP \(answer.status) without a {\"nonce\"}"))
        }
        return nonce
    }
}
