public import ARVisSpec

/// An error from ARVisGraphics: a missing or unreadable font, a drawing too large to rasterise, or a
/// picture that cannot be decoded.
public struct GraphicsError: ModuleError {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable { case fontMissing, fontInvalid, canvasTooLarge, imageInvalid, imageUnsupported, imageTooLarge, qrDataTooLong, invalidArgument }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A required font file is not in the font directory.
        public static let fontMissing = Code(.fontMissing)
        /// A font file could not be read as TrueType.
        public static let fontInvalid = Code(.fontInvalid)
        /// The PNG would exceed the pixel limit.
        public static let canvasTooLarge = Code(.canvasTooLarge)
        /// A PNG or JPEG picture is damaged or truncated.
        public static let imageInvalid = Code(.imageInvalid)
        /// A picture is in a format (or a JPEG process) that cannot be decoded.
        public static let imageUnsupported = Code(.imageUnsupported)
        /// A picture has more pixels than ``RasterImage/maximumPixels``.
        public static let imageTooLarge = Code(.imageTooLarge)
        /// The text does not fit in a QR Code of version 40 at the level asked for.
        public static let qrDataTooLong = Code(.qrDataTooLong)
        /// A parameter is outside its range (a QR Code version, a module size).
        public static let invalidArgument = Code(.invalidArgument)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line an author can act on.
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
