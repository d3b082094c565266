public import ARVisSpec
public import ARVisSupport
public import Foundation

/// The syntax a spec is written in, JSON or YAML, and the one place a spec's bytes become a document:
/// the command line (by a file's extension) and the server (by a body's `Content-Type`, or a stored
/// version's media type) both read through it. Without a name or a type, the first character decides.
public enum SpecSyntax: String, FileFormat {
    case json, yaml

    /// The media type a spec of this syntax is stored and served with.
    public var mediaType: String { self == .json ? "application/json" : "application/yaml" }

    /// `.json`; `.yaml` or `.yml`.
    public var fileExtensions: [String] { self == .json ? ["json"] : ["yaml", "yml"] }

    /// The media types that name the syntax (besides any `+json` type, which is JSON).
    public var mediaTypes: [String] {
        self == .json
            ? ["application/json", "text/json"]
            : ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"]
    }

    /// The syntax of the file at `path`: `.yaml`/`.yml` and `.json` name it, else its bytes' first
    /// character.
    public init(path: String, bytes: some Collection<UInt8>) {
        self = Self(path: path) ?? (SpecReader.looksLikeJSON(bytes) ? .json : .yaml)
    }

    /// The syntax a `Content-Type` names; `nil` when it names neither (a server answers `415`).
    /// Without a content type the body's first character decides.
    public init?(contentType: String?, body: some Collection<UInt8>) {
        guard let contentType, !contentType.isEmpty else {
            self = SpecReader.looksLikeJSON(body) ? .json : .yaml
            return
        }
        if let syntax = Self(mediaType: contentType) {
            self = syntax
        } else if Self.essence(ofMediaType: contentType).hasSuffix("+json") {
            self = .json
        } else {
            return nil
        }
    }

    /// The syntax of a stored spec's media type (``mediaType``); anything else is JSON.
    public init(storedMediaType mediaType: String) {
        self = mediaType == SpecSyntax.yaml.mediaType ? .yaml : .json
    }

    /// Reads `bytes` in this syntax, with diagnostics located in the file `file`.
    public func read(_ bytes: Data, file: String?, options: ReadOptions = ReadOptions()) -> ReadResult {
        switch self {
        case .json: SpecReader.read(json: bytes, file: file, options: options)
        case .yaml: YAMLSpecReader.read(yaml: bytes, file: file, options: options)
        }
    }
}
