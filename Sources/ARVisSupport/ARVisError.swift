/// The one contract of ARVis errors: what kind of problem it is (``code``), one line to act on
/// (``message``), where, when it concerns one place (``location``), and the error that caused it
/// (``cause``).
///
/// Every module's error keeps it; the adapters map errors once, by type and code: the server to
/// HTTP statuses, the command line to exit codes.
public protocol ARVisError: Error, Sendable, CustomStringConvertible {
    /// The module's set of codes.
    associatedtype Domain
    /// Where a problem is: a path in a file, a node, a resource.
    associatedtype Location: Sendable, CustomStringConvertible

    /// What kind of problem this is.
    var code: ErrorCode<Domain> { get }
    /// One line an author or an operator can act on.
    var message: String { get }
    /// Where the problem is, when it concerns one place.
    var location: Location? { get }
    /// The underlying error, if another error caused this one.
    var cause: (any Error & Sendable)? { get }
}

/// An error of one module: each names its own with its codes, as
/// `public typealias ModelError = ModuleError<ModelErrorDomain>`.
///
/// Two errors are equal when their codes, messages and locations are (causes are not compared).
public struct ModuleError<Domain>: ARVisError, Hashable {
    /// What kind of problem this is.
    public typealias Code = ErrorCode<Domain>

    /// What kind of problem this is.
    public var code: Code
    /// One line an author or an operator can act on.
    public var message: String
    /// Where the problem is, when it concerns one place: a file, a node, a resource.
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

    /// `LOCATION: MESSAGE`, or the message alone; a location over 120 characters (a `data:` URL)
    /// is cut to keep it one line.
    public var description: String {
        guard let location else { return message }
        return "\(location.count > 120 ? location.prefix(117) + "…" : location): \(message)"
    }

    /// Compares codes, messages and locations; causes are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location
    }

    /// Hashes the code, message and location, the parts `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
    }
}
