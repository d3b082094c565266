public import ARVisSpec

/// An error from ARVisSpatial: a malformed packet or signal, or input a computation cannot use.
public struct SpatialError: ModuleError {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case wrongLength, unsupportedVersion, checksumMismatch, notFinite, malformedSignal, insufficientData
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A packet is shorter or longer than its format.
        public static let wrongLength = Code(.wrongLength)
        /// A packet's version byte is not one this reader knows.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// A packet's checksum does not match its content.
        public static let checksumMismatch = Code(.checksumMismatch)
        /// A value is NaN or infinite, or a rotation is not a unit quaternion.
        public static let notFinite = Code(.notFinite)
        /// A signal's text is not in its format.
        public static let malformedSignal = Code(.malformedSignal)
        /// Too few points or correspondences for the computation.
        public static let insufficientData = Code(.insufficientData)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line saying what was expected and what was found.
    public var message: String

    /// Where the problem is, when it concerns one place: a file, an element, a packet field.
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
