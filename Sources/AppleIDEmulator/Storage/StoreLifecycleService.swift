import ServiceLifecycle

/// Closes the store once the application shuts down gracefully (after the server has stopped).
struct StoreLifecycleService: Service {
    let store: EmulatorStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}
