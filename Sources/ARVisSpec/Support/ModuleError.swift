/// The shape of the errors the modules below the edges throw (`GraphicsError`, `SpatialError`,
/// `ExportError`): an extensible code, a one-line message, where the problem is, and what caused it.
///
/// Two errors are equal when code, message and location are; the cause is context, not identity.
public protocol ModuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's kind of code, a struct over a private enum so that new codes can be added.
    associatedtype Code: Sendable, Hashable, CustomStringConvertible
    /// What went wrong.
    var code: Code { get }
    /// One line an author can act on.
    var message: String { get }
    /// Where the problem is, when it concerns one place: a file, an element, a node.
    var location: String? { get }
    /// The underlying error, if another error caused this one.
    var cause: (any Error & Sendable)? { get }
}

extension ModuleError {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
    }
}
