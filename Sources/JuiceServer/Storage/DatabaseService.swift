import ServiceLifecycle

/// Keeps the database open while the application runs and closes it at shutdown.
struct DatabaseService: Service {
    let database: any JuiceDatabase

    init(database: any JuiceDatabase) {
        self.database = database
    }

    func run() async throws {
        try? await gracefulShutdown()
        await database.close()
    }
}
