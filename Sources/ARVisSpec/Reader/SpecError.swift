public import ARVisSupport

/// The error ARVisSpec throws: a code, a one-line message and where the problem is.
///
/// Throwing entry points such as ``SpecReader/decode(_:file:options:)`` throw the first error of a
/// document, with every diagnostic of the document attached.
public struct SpecError: ARVisError, Hashable {
    /// What kind of problem this is: one of the codes below, extensible without breaking clients.
    public typealias Code = ErrorCode<SpecErrorDomain>

    /// What kind of problem this is.
    public var code: Code
    /// One line saying what is wrong.
    public var message: String
    /// Where the problem is, when it is in a source.
    public var location: SourceLocation?
    /// The path of the offending value in the document.
    public var path: String
    /// Every diagnostic of the document the error came from (including this one).
    public var diagnostics: [Diagnostic]
    /// The underlying error, if another error caused this one.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, message: String, location: SourceLocation? = nil, path: String = "",
        diagnostics: [Diagnostic] = [], cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.path = path
        self.diagnostics = diagnostics
        self.cause = cause
    }

    /// The error for the first error among `diagnostics`, carrying all of them.
    package init(diagnostics: [Diagnostic]) {
        let first = diagnostics.first { $0.severity == .error } ?? diagnostics[0]
        self.init(
            code: first.code, message: first.message, location: first.location, path: first.path,
            diagnostics: diagnostics)
    }

    /// One line an author can act on: the location, the path and the message.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        let subject = path.isEmpty ? "" : "\(path): "
        return "\(place)\(subject)\(message)"
    }

    /// Compares code, message, location, path and diagnostics; the cause is not compared.
    public static func == (lhs: SpecError, rhs: SpecError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location
            && lhs.path == rhs.path && lhs.diagnostics == rhs.diagnostics
    }

    /// Hashes the code, message, location and path, which equal errors share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
        hasher.combine(path)
    }
}

/// The codes of ``SpecError`` and of every ``Diagnostic``.
public enum SpecErrorDomain {}

extension ErrorCode<SpecErrorDomain> {
    /// The text is not well-formed JSON or YAML.
    public static let syntax = Self("syntax")
    /// The bytes are not valid UTF-8.
    public static let encoding = Self("encoding")
    /// Values are nested deeper than the reader's depth limit.
    public static let depthLimit = Self("depthLimit")
    /// A number does not fit a 64-bit float or integer.
    public static let numberOutOfRange = Self("numberOutOfRange")
    /// An object has the same key twice.
    public static let duplicateKey = Self("duplicateKey")
    /// A comma before a closing bracket (accepted, as iARVis accepts it).
    public static let trailingComma = Self("trailingComma")
    /// A value has the wrong JSON type.
    public static let typeMismatch = Self("typeMismatch")
    /// A required key is absent.
    public static let missingKey = Self("missingKey")
    /// A key the grammar does not define.
    public static let unknownKey = Self("unknownKey")
    /// A value has the right type but is not allowed (a bad colour, a negative size …).
    public static let invalidValue = Self("invalidValue")
    /// A name that should refer to something defined elsewhere does not (a data source, a column …).
    public static let unknownReference = Self("unknownReference")
    /// The document is none of the three kinds (environment, component, chart).
    public static let unknownKind = Self("unknownKind")
    /// Valid for ARVis, but behaves differently or not at all in iARVis.
    public static let compatibility = Self("compatibility")
    /// The input could not be read at all.
    public static let unreadable = Self("unreadable")
    /// A whole number too large for 64 bits, kept as the nearest float (its last digits change).
    public static let inexactNumber = Self("inexactNumber")
    /// A link that is drawn as text because following it could run code (`javascript:` …).
    public static let unsafeLink = Self("unsafeLink")
    /// A resource that a safe loader will refuse: a local file outside the spec's folder, or a
    /// loopback, private or link-local address.
    public static let unsafeResource = Self("unsafeResource")
}
