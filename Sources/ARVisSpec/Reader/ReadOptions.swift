/// How strictly and how deeply the reader reads a spec.
public struct ReadOptions: Sendable, Hashable {
    /// The document kind to read, or `nil` to detect it from the document's keys.
    public var kind: DocumentKind?
    /// Report unknown keys and other warnings as errors.
    public var strict: Bool
    /// The deepest nesting of arrays and objects accepted; deeper input is a clean error, never a crash.
    public var maximumDepth: Int

    /// The default depth limit: far deeper than any real spec, far shallower than the stack allows.
    public static let defaultMaximumDepth = 256

    /// Creates options; the defaults detect the kind, warn on unknown keys and allow 256 levels.
    public init(kind: DocumentKind? = nil, strict: Bool = false, maximumDepth: Int = ReadOptions.defaultMaximumDepth) {
        self.kind = kind
        self.strict = strict
        self.maximumDepth = maximumDepth
    }
}
