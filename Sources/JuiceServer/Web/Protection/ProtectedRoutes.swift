import Hummingbird

/// The router's groups, one per ``RouteProtection``: a controller adds each route to the group that says
/// who may reach it, and the group's middleware and request context enforce that before the handler runs.
///
/// ```swift
/// routes.signedInChanges.delete("/api/account") { request, context in
///     // context.signedIn is the proven session: this handler cannot run without one
/// }
/// routes.exempt(because: "Apple's cross-site form_post; the state binding defends it").post("/auth/apple/callback") { … }
/// ```
struct ProtectedRoutes {
    /// The table every route is recorded in (with its methods, for 405, and its protection).
    let catalog: RouteCatalog<AppRequestContext>
    /// Safe reads anyone may make.
    let openReads: ProtectedGroup<AppRequestContext>
    /// Form posts, signed in or not: CSRF token and origin.
    let forms: ProtectedGroup<AppRequestContext>
    /// A page script's posts, signed in or not: `Origin` must be this site.
    let scripts: ProtectedGroup<AppRequestContext>
    /// The signed-in browser's pages (no session cookie: to the login page).
    let signedInPages: ProtectedGroup<SignedInPageContext>
    /// Forms on signed-in pages: CSRF token and origin, then the session cookie.
    let signedInForms: ProtectedGroup<SignedInPageContext>
    /// API reads that need a session (401 without one).
    let signedInReads: ProtectedGroup<SignedInContext>
    /// API changes that need a session (401), made with the cookie only from this site (403).
    let signedInChanges: ProtectedGroup<SignedInContext>

    init(_ catalog: RouteCatalog<AppRequestContext>, csrf: CSRFProtection, origin: OriginCheck) {
        self.catalog = catalog
        func group<Context>(_ parent: any RouterMethods<Context>, _ protection: RouteProtection) -> ProtectedGroup<Context> {
            ProtectedGroup(parent: parent, catalog: catalog, protection: protection)
        }
        let csrfChecked = catalog.group().add(middleware: CSRFMiddleware(csrf: csrf))
        openReads = group(catalog, .openRead)
        forms = group(csrfChecked, .form)
        scripts = group(catalog.group().add(middleware: ScriptOriginMiddleware(origin: origin)), .script)
        signedInPages = group(catalog.group(context: SignedInPageContext.self), .signedInPage)
        signedInForms = group(csrfChecked.group(context: SignedInPageContext.self), .signedInForm)
        signedInReads = group(catalog.group(context: SignedInContext.self), .signedInRead)
        signedInChanges = group(
            catalog.group(context: SignedInContext.self).add(middleware: SameOriginChangeMiddleware(origin: origin)), .signedInChange)
    }

    /// A group for changes anyone may ask for, with the reason they need neither a session nor an origin check.
    func exempt(because reason: String) -> ProtectedGroup<AppRequestContext> {
        ProtectedGroup(parent: catalog, catalog: catalog, protection: .exempt(because: reason))
    }
}
