import Foundation
import PackagePlugin

/// Embeds a target's browser code (every file under `Web/Files`), its pages' templates
/// (`Web/Templates`) and its `openapi.yaml` in the target's code at build time, as
/// `EmbeddedFiles.texts` keyed by path: the binary serves them with nothing beside it, and no
/// generated file is committed.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = target.directoryURL
        let inputs =
            files(under: root.appending(path: "Web/Files")) + files(under: root.appending(path: "Web/Templates"))
            + [root.appending(path: "openapi.yaml")]
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files in \(target.name)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [output.path, root.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// Every regular file below `folder`, hidden ones aside.
    private func files(under folder: URL) -> [URL] {
        let walk = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        return (walk?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}
