extension ConfigurationLoader {
    /// `[web]`: `listen`, `auth_token`, `auth_token_file`; nil when the section is absent (no web server) or invalid
    /// (its problems are reported). A listen address beyond loopback without a token is refused.
    static func readWeb(_ root: TableReader) -> WebSection? {
        guard root.contains("web") else { return nil }
        guard let table = root.table("web", known: ["listen", "auth_token", "auth_token_file"]) else { return nil }
        var valid = true
        var listen = WebSection.defaultListen
        if let text = table.string("listen") {
            do {
                listen = try WebListenAddress(parsing: text)
            } catch {
                table.report("listen", "\(error.description) (got \(TableReader.quoted(text)))")
                valid = false
            }
        } else if table.contains("listen") {
            valid = false
        }
        var token: DashboardToken?
        if let text = table.string("auth_token") {
            do {
                token = try DashboardToken(text: text)
            } catch {
                table.report("auth_token", error.description)
                valid = false
            }
        } else if table.contains("auth_token") {
            valid = false
        }
        let tokenFile = table.nonEmptyString("auth_token_file")
        if tokenFile == nil && table.contains("auth_token_file") { valid = false }
        if table.contains("auth_token") && table.contains("auth_token_file") {
            table.report("auth_token_file", "use auth_token or auth_token_file, not both")
            valid = false
        }
        if valid, !listen.isLoopback, token == nil, tokenFile == nil {
            table.report(
                "listen",
                "\(listen) is reachable beyond this machine, so it needs auth_token or auth_token_file (the dashboard "
                    + "switches lights and includes devices); or listen on 127.0.0.1")
            valid = false
        }
        guard valid else { return nil }
        return WebSection(listen: listen, authToken: token, authTokenFile: tokenFile)
    }
}
