import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import Foundation

/// A spec's bytes as they travel: exactly as the author sent them (trailing commas, comments in
/// YAML, key order, line numbers kept), in JSON or YAML.
enum SpecSyntax: String, Sendable {
    case json, yaml

    /// The media type a version is stored and served with.
    var mediaType: String { self == .json ? "application/json" : "application/yaml" }

    /// The syntax a `Content-Type` names; `nil` when it names neither (`415`). Without a content
    /// type the body's first character decides.
    init?(contentType: String?, body: [UInt8]) {
        guard let contentType, !contentType.isEmpty else {
            self = SpecReader.looksLikeJSON(body) ? .json : .yaml
            return
        }
        let type =
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "application/json", "text/json": self = .json
        case "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml": self = .yaml
        default:
            guard type.hasSuffix("+json") else { return nil }
            self = .json
        }
    }

    /// The syntax of a stored version.
    init(mediaType: String) {
        self = mediaType == SpecSyntax.yaml.mediaType ? .yaml : .json
    }

    /// Reads `body` as this syntax, with diagnostics located in the file `name`.
    func read(_ body: [UInt8], name: String) -> ReadResult {
        switch self {
        case .json: SpecReader.read(json: Data(body), file: name)
        case .yaml: YAMLSpecReader.read(yaml: Data(body), file: name)
        }
    }
}

extension SpecVersion {
    /// The strong `ETag` of this version: its number and a prefix of its content hash, so a spec
    /// deleted and created again never matches an old tag.
    var etag: String { "\"\(version)-\(contentHash.prefix(16))\"" }

    /// The version and hash prefix an `ETag` of ``etag``'s form names, or `nil`.
    static func parse(etag: String) -> (version: Int, hashPrefix: String)? {
        // Generated clients percent-encode the quotes of header values; both spellings are accepted.
        var text = Substring((etag.removingPercentEncoding ?? etag).trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return nil }
        let parts = text.dropFirst().dropLast().split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let version = Int(parts[0]), version > 0 else { return nil }
        return (version, String(parts[1]))
    }

    /// Whether an `If-None-Match` list names this version.
    func isNamed(byAnyOf header: String?) -> Bool {
        ETagList.names(etag, header)
    }
}

/// `If-None-Match` lists, as every route that answers `304` reads them.
enum ETagList {
    /// Whether `header` names `etag`: the tag itself, its weak form `W/…`, or `*`. Generated clients
    /// percent-encode the quotes of header values; both spellings are accepted.
    static func names(_ etag: String, _ header: String?) -> Bool {
        guard let header = header.map({ $0.removingPercentEncoding ?? $0 }) else { return false }
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
