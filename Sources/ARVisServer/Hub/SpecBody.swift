import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import Foundation

extension SpecVersion {
    /// The stored spec as a document. One that no longer reads (the grammar changed under it) is a
    /// `422` asking for it to be saved again.
    func document() throws -> SpecDocument {
        guard let document = SpecSyntax(mediaType: mediaType).read(Data(body ?? []), file: name).document else {
            throw APIError.invalid("invalidSpec", "the stored spec '\(name)' no longer reads; save it again")
        }
        return document
    }

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
