public import ARVisSpec

/// An error from ARVisStore: a missing or conflicting row, a failed precondition, or a database that
/// does not answer.
public struct StoreError: ModuleError {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable { case notFound, conflict, preconditionFailed, invalid, unavailable }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// No such account, project, spec or version.
        public static let notFound = Code(.notFound)
        /// The row exists already (a taken username or slug) or the change would break a rule.
        public static let conflict = Code(.conflict)
        /// The write was made against a version that is no longer the latest.
        public static let preconditionFailed = Code(.preconditionFailed)
        /// A value the store cannot keep (a name too long, an unknown role).
        public static let invalid = Code(.invalid)
        /// The database failed or cannot be opened.
        public static let unavailable = Code(.unavailable)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line an operator or a client can act on.
    public var message: String
    /// The resource concerned, such as `projects/museum/specs/ensor`.
    public var location: String?
    /// The database's own error, when one caused this.
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
