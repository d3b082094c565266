public import ARVisSupport

/// An error from ARVisGraphics: a missing or unreadable font, a drawing too large to rasterise, or a
/// picture that cannot be decoded.
public typealias GraphicsError = ModuleError<GraphicsErrorDomain>

/// The codes of ``GraphicsError``.
public enum GraphicsErrorDomain {}

extension ErrorCode<GraphicsErrorDomain> {
    /// A required font file is not in the font directory.
    public static let fontMissing = Self("fontMissing")
    /// A font file could not be read as TrueType.
    public static let fontInvalid = Self("fontInvalid")
    /// The PNG would exceed the pixel limit.
    public static let canvasTooLarge = Self("canvasTooLarge")
    /// A PNG or JPEG picture is damaged or truncated.
    public static let imageInvalid = Self("imageInvalid")
    /// A picture is in a format (or a JPEG process) that cannot be decoded.
    public static let imageUnsupported = Self("imageUnsupported")
    /// A picture has more pixels than ``RasterImage/maximumPixels``.
    public static let imageTooLarge = Self("imageTooLarge")
    /// The text does not fit in a QR Code of version 40 at the level asked for.
    public static let qrDataTooLong = Self("qrDataTooLong")
    /// A parameter is outside its range (a QR Code version, a module size).
    public static let invalidArgument = Self("invalidArgument")
}
