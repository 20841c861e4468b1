import ServiceLifecycle

/// Keeps the database open while the application runs and closes it at shutdown.
struct DatabaseService: Service {
    let database: any JuiceDatabase

    func run() async throws {
        try? await gracefulShutdown()
        await database.close()
    }
}
