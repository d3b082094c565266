/// How strictly and how deeply the reader reads a spec.
public struct ReadOptions: Sendable, Hashable {
    /// The document kind to read, or `nil` to detect it from the document's keys.
    public var kind: DocumentKind?
    /// Report unknown keys and other warnings as errors.
    public var strict: Bool
    /// The deepest nesting of arrays and objects accepted; deeper input is a clean error, never a
    /// crash. At most ``largestMaximumDepth``: larger values are lowered to it.
    public var maximumDepth: Int {
        get { depth }
        set { depth = min(max(newValue, 1), Self.largestMaximumDepth) }
    }
    private var depth = ReadOptions.defaultMaximumDepth
    /// How many `iARVis:` links deep this document is embedded (0: a file of its own).
    package var embeddingDepth = 0

    /// The default depth limit: far deeper than any real spec, far shallower than the stack allows.
    public static let defaultMaximumDepth = 256

    /// The deepest nesting any reader accepts. The reader, the decoder and the renderer recurse
    /// once per level; 1 000 levels is what their stacks are tested to hold (``ReadOptions`` tests
    /// read, render and write documents that deep).
    public static let largestMaximumDepth = 1_000

    /// Creates options; the defaults detect the kind, warn on unknown keys and allow 256 levels.
    public init(kind: DocumentKind? = nil, strict: Bool = false, maximumDepth: Int = ReadOptions.defaultMaximumDepth) {
        self.kind = kind
        self.strict = strict
        self.maximumDepth = maximumDepth
    }
}
