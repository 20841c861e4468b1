import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Transfer identifiers: one per Apple ID per (sending team, receiving team), in Apple's `sub` shape.
enum TransferSubject {
    static func ensure(
        email: String, from: String, to: String, now: Date, random: EmulatorRandom, in database: any SQLDatabase
    ) async throws -> String {
        if let row = try await database.raw(
            "SELECT transfer_sub FROM transfer_subs WHERE email = \(bind: email) AND from_team = \(bind: from) AND to_team = \(bind: to)"
        ).first() {
            return try row.decode(column: "transfer_sub", as: String.self)
        }
        let transferSubject = TeamUser.newSubject(random)
        try await database.raw(
            """
            INSERT INTO transfer_subs (transfer_sub, email, from_team, to_team, created_at)
            VALUES (\(bind: transferSubject), \(bind: email), \(bind: from), \(bind: to), \(bind: now.timeIntervalSince1970))
            """
        ).run()
        return transferSubject
    }
}
