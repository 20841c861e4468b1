extension EmulatorPageTemplates {
    /// `/`: what the emulator is, its endpoints, and links to the portal and the inbox.
    static let root = """
        {{> head}}
        <h1>{{t.root_title}}</h1>
        <p>{{t.root_intro}}</p>
        <p class="note">{{t.root_issuer}}: <code id="issuer">{{issuer}}</code></p>
        <p class="note">{{t.root_relay_domain}}: <code id="relay-domain">{{relay_domain}}</code></p>
        <nav aria-label="{{t.root_links}}">
        <ul>
        <li><a href="/account" id="portal-link">{{t.root_portal}}</a></li>
        <li><a href="/account#mail-heading" id="inbox-link">{{t.root_inbox}}</a></li>
        <li><a href="/emulator/admin/requests" id="requests-link">{{t.root_requests}}</a></li>
        </ul>
        </nav>
        <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">{{t.root_endpoints}}</h2>
        <table>
        <thead><tr><th scope="col">{{t.root_path}}</th><th scope="col">{{t.root_purpose}}</th></tr></thead>
        <tbody>
        {{#endpoints}}<tr><td><code>{{path}}</code></td><td>{{purpose}}</td></tr>
        {{/endpoints}}
        </tbody>
        </table>
        </section>
        {{> foot}}
        """
}
