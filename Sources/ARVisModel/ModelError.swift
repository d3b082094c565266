public import ARVisSpec

/// The error ARVisModel throws: a 3D file that cannot be read or a model that cannot be written.
///
/// `location` names where in the file the problem is: a byte offset (`byte 1024`), a glTF JSON
/// path (`meshes[0].primitives[1]`), a USD prim path (`/Root/Mesh.points`) or a package entry.
public struct ModelError: ModuleError {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable { case unsupported, invalid, truncated, tooLarge, notFound }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The file is of a kind, version or feature ARVis does not read (Draco meshes, a zip
        /// with compressed entries, a newer crate version).
        public static let unsupported = Code(.unsupported)
        /// The file breaks its format's rules: a bad magic number, an index out of range, bad JSON.
        public static let invalid = Code(.invalid)
        /// The file ends before the data it announces.
        public static let truncated = Code(.truncated)
        /// The file passes a limit (vertices, triangles, nodes, nesting, bytes).
        public static let tooLarge = Code(.tooLarge)
        /// Something the file names is absent (a buffer, a texture, a prim).
        public static let notFound = Code(.notFound)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line an author can act on.
    public var message: String
    /// Where in the file the problem is, when it concerns one place.
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

    /// The location, if any, then the message.
    public var description: String {
        guard let location else { return message }
        return "\(location): \(message)"
    }
}
