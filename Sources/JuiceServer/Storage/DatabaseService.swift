import ServiceLifecycle

/// Keeps the database open while the application runs and closes it at shutdown.
public struct DatabaseService: Service {
    let database: any JuiceDatabase

    public init(database: any JuiceDatabase) {
        self.database = database
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await database.close()
    }
}
