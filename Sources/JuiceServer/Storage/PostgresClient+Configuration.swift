import PostgresNIO

extension PostgresClient.Configuration {
    /// The pool's configuration for the server a connection's configuration names (as parsed from a
    /// `postgres://` URL): the same address or socket, credentials and database, and the same TLS
    /// mode (`disable`, `prefer` or `require`, with full certificate verification whenever TLS is used).
    init(_ connection: PostgresConnection.Configuration) {
        let tls: TLS =
            if !connection.tls.isAllowed {
                .disable
            } else if connection.tls.isEnforced {
                .require(.makeClientConfiguration())
            } else {
                .prefer(.makeClientConfiguration())
            }
        if let socket = connection.unixSocketPath {
            self.init(unixSocketPath: socket, username: connection.username, password: connection.password, database: connection.database)
            self.tls = tls
        } else {
            self.init(
                host: connection.host ?? "localhost", port: connection.port ?? 5432, username: connection.username, password: connection.password,
                database: connection.database, tls: tls)
        }
    }
}
