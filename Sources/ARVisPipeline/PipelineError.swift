/// The error ARVisPipeline throws: a code, a one-line message, the resource or input it concerns,
/// and the underlying error.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem this is. Extensible: new codes may be added without breaking clients.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case refused, notFound, unreadable, tooLarge, timedOut, httpStatus, network, invalidInput, limitExceeded
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The resource policy forbids the resource: a file outside the allowed folder, a private
        /// address, a scheme that loads nothing.
        public static let refused = Code(.refused)
        /// The file or page does not exist.
        public static let notFound = Code(.notFound)
        /// The resource exists but could not be read (a folder, a device, no permission, bad encoding).
        public static let unreadable = Code(.unreadable)
        /// The resource is larger than the policy's limit.
        public static let tooLarge = Code(.tooLarge)
        /// The resource did not arrive in time.
        public static let timedOut = Code(.timedOut)
        /// The server answered with an error status.
        public static let httpStatus = Code(.httpStatus)
        /// The network failed: no such host, connection refused, TLS failure, too many redirects.
        public static let network = Code(.network)
        /// The input cannot be used (a document of the wrong kind, a bad parameter).
        public static let invalidInput = Code(.invalidInput)
        /// The work would exceed a documented limit (marks, cells, trees).
        public static let limitExceeded = Code(.limitExceeded)

        /// The code's name, as shown in JSON output.
        public var description: String { value.rawValue }
    }

    /// What kind of problem this is.
    public var code: Code
    /// One line saying what is wrong.
    public var message: String
    /// The resource URL or input the error concerns, if any.
    public var subject: String?
    /// The underlying error.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(code: Code, message: String, subject: String? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.subject = subject
        self.cause = cause
    }

    /// `SUBJECT: MESSAGE`, one line an author can act on.
    public var description: String {
        guard let subject else { return message }
        return "\(subject.count > 120 ? subject.prefix(117) + "…" : subject): \(message)"
    }
}
