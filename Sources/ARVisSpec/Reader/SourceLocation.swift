/// A place in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the caller named it, or `nil` for text that came from memory.
    public var file: String?
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String?, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, with `<input>` standing for a nameless source.
    public var description: String { "\(file ?? "<input>"):\(line):\(column)" }
}
