import Foundation

/// An entity tag (RFC 9110 §8.8.3): opaque text between double quotes, weak when written `W/"…"`.
///
/// ARVis tags a stored spec version `"<version>-<16 hex digits of its content hash>"`, so a spec
/// deleted and created again never matches an old tag:
///
/// ```swift
/// let tag = EntityTag(version: 3, contentHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b")
/// tag.field                        // "\"3-9f86d081884c7d65\""
/// tag.version?.number              // 3
/// EntityTagList(parsing: "W/\"3-9f86d081884c7d65\", \"4-00\"")?.names(tag, comparison: .weak)  // true
/// ```
public struct EntityTag: Sendable, Hashable {
    /// The text between the quotes: no double quote, no control character, no space.
    public let opaque: String
    /// Whether the tag is weak (`W/`): it names equivalent content, not the same bytes.
    public let isWeak: Bool

    /// A tag of `opaque`, or `nil` when it holds a character an entity tag cannot (RFC 9110 `etagc`:
    /// `!`, `#` to `~` and bytes past ASCII).
    public init?(_ opaque: String, weak: Bool = false) {
        guard opaque.utf8.allSatisfy(Self.isTagByte) else { return nil }
        self.init(checked: opaque, weak: weak)
    }

    /// A tag of `opaque`, whose characters are already checked.
    fileprivate init(checked opaque: String, weak: Bool) {
        self.opaque = opaque
        isWeak = weak
    }

    /// The strong tag ARVis gives version `version` of a spec whose content hash is `contentHash`.
    public init(version: Int, contentHash: some StringProtocol) {
        self.init(checked: "\(version)-\(contentHash.prefix(16))", weak: false)
    }

    /// The strong tag of made content, its `parts` joined by dashes (a content hash's prefix, a
    /// widget's key, a format): a character an entity tag cannot hold (a quote, a space, a control
    /// character) becomes `_`, so every tag ARVis writes is well formed.
    ///
    /// ```swift
    /// EntityTag(joining: ["9f86d081884c7d65", "chart one", "png"]).field  // "\"9f86d081884c7d65-chart_one-png\""
    /// ```
    public init(joining parts: [String]) {
        let text = parts.joined(separator: "-")
        let safe =
            text.utf8.allSatisfy(Self.isTagByte)
            ? text : String(decoding: text.utf8.map { Self.isTagByte($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        self.init(checked: safe, weak: false)
    }

    /// The tag as a field writes it: `"…"` or `W/"…"`.
    public var field: String { (isWeak ? "W/\"" : "\"") + opaque + "\"" }

    /// The version number and content-hash prefix of a tag of ``init(version:contentHash:)``'s form
    /// (weak too: a proxy that compresses a response weakens its tag), or `nil`.
    public var version: (number: Int, hashPrefix: String)? {
        let parts = opaque.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(parts[0]), number > 0
        else { return nil }
        return (number, String(parts[1]))
    }

    /// Whether `byte` may stand between an entity tag's quotes.
    static func isTagByte(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80
    }
}

/// An `If-Match` or `If-None-Match` field (RFC 9110 §13.1.1–2): `*`, or a comma-separated list of
/// entity tags. Generated clients percent-encode the quotes of header values, so a field that
/// percent-decodes is read decoded.
public enum EntityTagList: Sendable, Hashable {
    /// `*`: any current version.
    case any
    /// The tags the list names, in its order (at least one).
    case tags([EntityTag])

    /// How two tags are compared (RFC 9110 §8.8.3.2).
    public enum Comparison: Sendable {
        /// Both strong, and the same text: what `If-Match` asks.
        case strong
        /// The same text, either weak: what `If-None-Match` asks.
        case weak
    }

    /// Reads a field; `nil` when it is neither `*` nor a list of at least one well-formed tag.
    public init?(parsing field: String) {
        let bytes = Array((field.removingPercentEncoding ?? field).utf8)
        if bytes.filter({ !Self.isSpace($0) }) == [0x2A] {  // * between optional spaces
            self = .any
            return
        }
        guard let tags = Self.tags(bytes), !tags.isEmpty else { return nil }
        self = .tags(tags)
    }

    /// Whether this list names `tag` under `comparison` (`*` names every tag).
    public func names(_ tag: EntityTag, comparison: Comparison) -> Bool {
        switch self {
        case .any: return true
        case .tags(let tags):
            return tags.contains { candidate in
                candidate.opaque == tag.opaque
                    && (comparison == .weak || (!candidate.isWeak && !tag.isWeak))
            }
        }
    }

    /// Whether an `If-None-Match` field names `tag` (weak comparison); `false` when it is absent or
    /// malformed.
    public static func names(_ tag: EntityTag, inIfNoneMatch header: String?) -> Bool {
        guard let header, let list = EntityTagList(parsing: header) else { return false }
        return list.names(tag, comparison: .weak)
    }

    /// The field this list is read from.
    public var field: String {
        switch self {
        case .any: return "*"
        case .tags(let tags): return tags.map(\.field).joined(separator: ", ")
        }
    }

    /// Whether `byte` is a field's optional whitespace: a space or a tab (RFC 9110 §5.6.3).
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The tags of a list: members between commas and optional spaces or tabs, empty members
    /// skipped (RFC 9110 §5.6.1); `nil` when a member is not a tag.
    private static func tags(_ bytes: [UInt8]) -> [EntityTag]? {
        var tags: [EntityTag] = []
        var index = 0
        func skip(_ isSkipped: (UInt8) -> Bool) { while index < bytes.count, isSkipped(bytes[index]) { index += 1 } }
        while true {
            skip { isSpace($0) || $0 == 0x2C }
            guard index < bytes.count else { return tags }
            let weak = bytes[index...].starts(with: [0x57, 0x2F])  // W/
            if weak { index += 2 }
            guard index < bytes.count, bytes[index] == 0x22 else { return nil }
            let start = index + 1
            guard let end = bytes[start...].firstIndex(of: 0x22), bytes[start..<end].allSatisfy(EntityTag.isTagByte)
            else { return nil }
            tags.append(EntityTag(checked: String(decoding: bytes[start..<end], as: UTF8.self), weak: weak))
            index = end + 1
            skip(isSpace)
            guard index == bytes.count || bytes[index] == 0x2C else { return nil }
        }
    }
}
