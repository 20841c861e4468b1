import Hummingbird

/// The OpenAPI 3.1 description of the API, served at `GET /openapi.yaml`: docs/openapi.yaml,
/// compiled into the binary (`Resources/openapi.yaml` links to it), so there is one document.
enum OpenAPIDocument {
    /// The document (YAML, UTF-8).
    static let yaml: [UInt8] = PackageResources.openapi_yaml

    /// `GET /openapi.yaml`.
    static var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: yaml))
            )
        }
        return routes
    }
}
