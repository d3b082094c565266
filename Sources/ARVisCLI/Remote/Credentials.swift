import Foundation

/// The tokens `arvis login` keeps, one per server, in `$XDG_CONFIG_HOME/arvis/credentials.json`
/// (`~/.config/arvis/…`), readable by its owner only. `ARVIS_TOKEN` overrides them.
struct Credentials {
    /// The file.
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? ".") + "/.config")
        return base + "/arvis/credentials.json"
    }

    /// The token for `server`: `ARVIS_TOKEN`, else the stored one.
    static func token(for server: URL) -> String? {
        if let token = ProcessInfo.processInfo.environment["ARVIS_TOKEN"], !token.isEmpty { return token }
        return stored()[server.absoluteString]
    }

    /// Keeps `token` for `server`.
    static func save(_ token: String, for server: URL) throws {
        var tokens = stored()
        tokens[server.absoluteString] = token
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(tokens)
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }

    private static func stored() -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }
}
