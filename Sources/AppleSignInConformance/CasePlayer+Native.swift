import AppleIDEmulator
import JuiceEncodings

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CasePlayer {
    func playNative(_ plan: SignInPlan, earlier: [String: ConformanceReport.CaseResult] = [:]) async throws -> Observation {
        guard let nativePath = options.nativePath else { return .skipped("no --native endpoint") }
        if plan.rotatesKeys {
            return try await playKeyRotation(retrying: earlier[ConformanceCatalog.nativeBaseline]?.verdict == .passed) {
                await post(try await nativeBody(plan), to: nativePath)
            }
        }
        if plan.warmUp {
            // First a sign-in with Apple as usual, so a backend that caches Apple's keys has them; then the
            // failures come into force and a second, fresh credential is judged.
            let warmUp = await post(try await nativeBody(SignInPlan()), to: nativePath)
            guard warmUp.isAccepted else {
                return .inconclusive("the sign-in with Apple as usual was not accepted (\(warmUp.detail)): nothing to compare")
            }
        }
        let mark = apple.lastRequestID()
        apple.put(plan.failures, clientID: options.appAudience)
        let json = try await nativeBody(plan)
        if plan.has(.issuerDrift) { return judgeDrift(await post(json, to: nativePath), after: mark) }
        if plan.replayed {
            let first = await post(json, to: nativePath)
            guard first.isAccepted else {
                return .inconclusive("the first sign-in with this credential was not accepted (\(first.detail)): a replay means nothing")
            }
        }
        if plan.stalls {
            let bound = options.appleStallBound
            let observation = await post(json, to: nativePath, appleDown: true, client: client.waiting(bound))
            guard case .timeout = observation else { return observation }
            return .timeout("\(nativePath) did not answer within \(bound) while Apple stalled")
        }
        return await post(json, to: nativePath, appleDown: plan.appleFails)
    }

    /// A fresh native credential (a new nonce from the backend, a code and token from Apple) in the body the backend takes.
    private func nativeBody(_ plan: SignInPlan) async throws -> Data {
        let rawNonce = try await nativeNonce()
        let staged = try await stage(plan, clientID: options.appAudience, redirectURI: nil, nonce: sha256Hex(rawNonce), device: true)
        let newUser = plan.person == .newUser ? (staged.signIn.email ?? staged.appleID, AppleStage.name.first, AppleStage.name.last) : nil
        let body = options.nativeBody.fields(
            token: staged.token, code: plan.withoutCode ? nil : staged.signIn.code, rawNonce: rawNonce, newUser: newUser)
        return try JSONEncoder().encode(body)
    }

    /// Posts a native body; the observation of the answer. While Apple is down (`appleDown`), a 502, 503 or
    /// 504 is a clean refusal: the backend reports its upstream's outage as a gateway error, not a crash of its own.
    private func post(_ json: Data, to nativePath: String, appleDown: Bool = false, client: BackendClient? = nil) async -> Observation {
        do {
            let answer = try await (client ?? self.client).postJSON(options.backend + nativePath, json)
            if appleDown, Self.gatewayErrors.contains(answer.status) {
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
