import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing off the request threads: bcrypt blocks its thread for a deliberately long time,
/// so every call runs on `NIOThreadPool`.
struct PasswordHasher: Sendable {
    /// The bcrypt cost (log2 rounds).
    let cost: Int
    private let threadPool: NIOThreadPool
    /// A hash of a random password, verified against when a username is unknown so that unknown
    /// names and wrong passwords take the same time.
    private let decoyHash: String

    /// Creates a hasher; computes the decoy hash once.
    static func make(cost: Int, threadPool: NIOThreadPool = .singleton, random: ServerRandom) async throws -> PasswordHasher {
        let clamped = UInt8(min(max(cost, 4), 31))
        let decoy = random.token()
        let decoyHash = try await threadPool.runIfActive { Bcrypt.hash(decoy, cost: clamped) }
        return PasswordHasher(cost: Int(clamped), threadPool: threadPool, decoyHash: decoyHash)
    }

    private init(cost: Int, threadPool: NIOThreadPool, decoyHash: String) {
        self.cost = cost
        self.threadPool = threadPool
        self.decoyHash = decoyHash
    }

    /// The bcrypt hash of `password`.
    func hash(_ password: String) async throws -> String {
        let cost = UInt8(self.cost)
        return try await threadPool.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`; with `nil` it checks the decoy and returns `false`.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? decoyHash
        let matches = try await threadPool.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && matches
    }
}
