import Foundation
import PackagePlugin

/// Embeds a target's `Assets/` folder (the dashboard's HTML, CSS and JavaScript) into its binary: the `embed-assets`
/// tool writes them into one generated Swift file, so the daemon is one file to install (SwiftPM resources on Linux
/// would be a bundle directory beside it).
@main
struct EmbedAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Assets")
        let files = try FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        )
        .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "DashboardAssets+Files.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) assets of \(target.name)",
                executable: try context.tool(named: "embed-assets").url,
                arguments: [output.path] + files.map(\.path), inputFiles: files, outputFiles: [output])
        ]
    }
}
