/// One page asset embedded in the binary (HTML, CSS, JavaScript), with its content type and ETag.
struct DashboardAsset: Sendable {
    let contentType: String
    /// A quoted strong ETag, from the file's bytes.
    let etag: String
    let text: String
}

/// The dashboard's pages and scripts, from `Sources/WebDashboard/Assets`, embedded by the EmbedAssets plugin
/// (`files`, generated).
enum DashboardAssets {
    /// The page every route of the dashboard serves; its scripts draw the page the path names.
    static let page = "index.html"
}
