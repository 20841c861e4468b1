extension EmulatorPageTemplates {
    /// `/emulator/admin/requests` in a browser: the captured requests to Apple's endpoints, newest first,
    /// filtered by client id.
    static let requests = """
        {{> head}}
        <h1>{{t.requests_title}}</h1>
        <p>{{t.requests_intro}}</p>
        <form method="get" action="/emulator/admin/requests">
        <label for="client-id">{{t.requests_client_id}}</label>
        <input id="client-id" name="client_id" value="{{client_id}}" maxlength="255">
        <button type="submit">{{t.requests_show}}</button>
        </form>
        {{^any}}<p id="no-requests">{{t.requests_none}}</p>{{/any}}
        {{#any}}
        <table id="requests">
        <thead><tr><th scope="col">#</th><th scope="col">{{t.requests_received}}</th><th scope="col">{{t.requests_request}}</th>
        <th scope="col">{{t.requests_client_id}}</th><th scope="col">{{t.requests_grant}}</th><th scope="col">{{t.requests_redirect}}</th>
        <th scope="col">{{t.requests_secret}}</th><th scope="col">{{t.requests_answer}}</th></tr></thead>
        <tbody>
        {{#requests}}<tr><td>{{id}}</td><td><time>{{received}}</time></td><td><code>{{method}} {{path}}</code></td>
        <td>{{client_id}}</td><td>{{grant_type}}</td><td>{{redirect_uri}}</td>
        <td>{{#secret}}<code>{{header}}</code><br><code>{{claims}}</code>{{#lifetime}}<br>{{lifetime}}{{/lifetime}}{{/secret}}</td>
        <td>{{status}}{{#error}} <code>{{error}}</code>{{/error}}</td></tr>
        {{/requests}}
        </tbody>
        </table>
        {{/any}}
        {{> foot}}
        """
}
