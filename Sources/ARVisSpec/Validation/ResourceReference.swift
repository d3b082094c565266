import ARVisSupport

/// What a resource URL in a spec points at, read from its text alone, without the disk or the network.
///
/// ```swift
/// ResourceReference("https://example.org/a.png")   // .web(url: …, host: "example.org")
/// ResourceReference("../../etc/passwd")            // .file(path: "../../etc/passwd")
/// ResourceReference("file:///etc/passwd").refusal  // "a local file outside the spec's folder …"
/// ```
public enum ResourceReference: Sendable, Hashable {
    /// An `http` or `https` URL and its host (without brackets for IPv6).
    case web(url: String, host: String)
    /// A local file: a path, absolute or relative to the spec's folder, or a `file:` URL's path
    /// (percent-decoded).
    case file(path: String)
    /// A `data:` URL, which carries its bytes.
    case data(String)
    /// A scheme that names nothing a loader can fetch.
    case unsupported(scheme: String)

    /// Reads a resource URL.
    public init(_ text: String) {
        switch LinkPolicy.scheme(of: text) {
        case nil: self = .file(path: Self.percentDecoded(text))
        case "http", "https": self = .web(url: text, host: Self.host(of: text))
        case "file": self = .file(path: Self.path(ofFileURL: text))
        case "data": self = .data(text)
        case let scheme?: self = .unsupported(scheme: scheme)
        }
    }

    /// Why a loader with the safe policy refuses this reference whatever the disk and the DNS say,
    /// or `nil`: a file path that is absolute or climbs out of the spec's folder, or a host that is
    /// `localhost` or a literal address outside the public internet. A host name may still resolve
    /// to a private address; the loader checks that when it fetches.
    public var refusal: String? {
        switch self {
        case .file(let path):
            guard Self.escapesItsFolder(path) else { return nil }
            return "\"\(path.prefix(100))\" is a local file outside the spec's folder"
        case .web(_, let host):
            let lowered = host.lowercased()
            if lowered == "localhost" || lowered.hasSuffix(".localhost") {
                return "\"\(host)\" is this machine (loopback)"
            }
            guard let address = IPAddress(host), !address.isPublic else { return nil }
            return "\(address) is not a public internet address (loopback, private, link-local or reserved)"
        case .data, .unsupported: return nil
        }
    }

    /// Whether a path is absolute or has more `..` than folders before it.
    static func escapesItsFolder(_ path: String) -> Bool {
        if path.hasPrefix("/") || path.hasPrefix("\\") || path.hasPrefix("~") { return true }
        var depth = 0
        for component in path.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
            switch component {
            case ".": continue
            case "..": depth -= 1
            default: depth += 1
            }
            if depth < 0 { return true }
        }
        return false
    }

    /// The host of `scheme://[user@]host[:port]/…`.
    package static func host(of url: String) -> String {
        guard let start = url.firstRange(of: "://")?.upperBound else { return "" }
        var authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.prefix { $0 != ":" })
    }

    /// The percent-decoded path of `file:/p`, `file:///p` or `file://host/p`.
    static func path(ofFileURL url: String) -> String {
        var rest = Substring(url).dropFirst(5)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        return percentDecoded(String(path))
    }

    /// `text` with `%XX` escapes decoded (malformed ones are kept as they are).
    package static func percentDecoded(_ text: String) -> String {
        guard text.contains("%"), let bytes = PercentDecoding.bytes(text, strict: false) else { return text }
        return String(decoding: bytes, as: UTF8.self)
    }
}
