import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing off the request threads: bcrypt blocks its thread for a deliberately long time,
/// so every call runs on `NIOThreadPool`, and at most ``BcryptLimiter/slots`` calls run at once.
struct PasswordHasher: Sendable {
    /// The bcrypt cost (log2 rounds).
    let cost: Int
    private let threadPool: NIOThreadPool
    /// Bounds concurrent hashes (shared by sign-up, sign-in and password change).
    let limiter: BcryptLimiter
    /// A hash of a random password, verified against when a username is unknown so that unknown
    /// names and wrong passwords take the same time.
    private let decoyHash: String

    /// Creates a hasher; computes the decoy hash once.
    static func make(
        cost: Int, threadPool: NIOThreadPool = .singleton, limiter: BcryptLimiter = BcryptLimiter(), random: ServerRandom
    ) async throws -> PasswordHasher {
        let clamped = UInt8(min(max(cost, 4), 31))
        let decoy = random.token()
        let decoyHash = try await threadPool.runIfActive { Bcrypt.hash(decoy, cost: clamped) }
        return PasswordHasher(cost: Int(clamped), threadPool: threadPool, limiter: limiter, decoyHash: decoyHash)
    }

    private init(cost: Int, threadPool: NIOThreadPool, limiter: BcryptLimiter, decoyHash: String) {
        self.cost = cost
        self.threadPool = threadPool
        self.limiter = limiter
        self.decoyHash = decoyHash
    }

    /// The bcrypt hash of `password` (which must fit bcrypt: ``PasswordBytes/fitsBcrypt(_:)``).
    /// - Throws: ``ServerError`` `server_busy` when the limiter's queue is full.
    func hash(_ password: String) async throws -> String {
        let cost = UInt8(self.cost)
        return try await limiter.run(.hash) { [threadPool] in try await threadPool.runIfActive { Bcrypt.hash(password, cost: cost) } }
    }

    /// Whether `password` matches `hash`. With `nil`, or a password bcrypt would cut short (a control
    /// character, more than 72 bytes: ``PasswordBytes``), it checks the decoy and returns `false`,
    /// after the same work as a wrong password.
    /// - Throws: ``ServerError`` `server_busy` when the limiter's queue is full.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let fits = PasswordBytes.fitsBcrypt(password)
        let target = fits ? hash ?? decoyHash : decoyHash
        let matches = try await limiter.run(.verify) { [threadPool] in try await threadPool.runIfActive { Bcrypt.verify(password, hash: target) } }
        return fits && hash != nil && matches
    }
}
