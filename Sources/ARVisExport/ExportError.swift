public import ARVisSpec

/// The error ARVisExport throws: a scene that cannot be written in the format asked for.
public struct ExportError: ModuleError {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable { case notFinite, tooLarge }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A pose or size is NaN or infinite, which glTF's JSON cannot hold.
        public static let notFinite = Code(.notFinite)
        /// The file would pass a format limit (a GLB is at most 4 GiB).
        public static let tooLarge = Code(.tooLarge)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line an author can act on.
    public var message: String
    /// The scene node the problem is in, when it is in one.
    public var location: String?
    /// The underlying error, if another error caused this one.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, location: String? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause
    }

    /// The message.
    public var description: String { message }
}
