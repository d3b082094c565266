public import ARVisSupport

/// An error from ARVisSpatial: a malformed packet or signal, or input a computation cannot use.
public typealias SpatialError = ModuleError<SpatialErrorDomain>

/// The codes of ``SpatialError``.
public enum SpatialErrorDomain {}

extension ErrorCode<SpatialErrorDomain> {
    /// A packet is shorter or longer than its format.
    public static let wrongLength = Self("wrongLength")
    /// A packet's version byte is not one this reader knows.
    public static let unsupportedVersion = Self("unsupportedVersion")
    /// A packet's checksum does not match its content.
    public static let checksumMismatch = Self("checksumMismatch")
    /// A value is NaN or infinite, or a rotation is not a unit quaternion.
    public static let notFinite = Self("notFinite")
    /// A signal's text is not in its format.
    public static let malformedSignal = Self("malformedSignal")
    /// A room message is not JSON in its type's shape, or its values are out of range.
    public static let invalidMessage = Self("invalidMessage")
    /// A room text frame is neither a JSON message of a type rooms take nor a legacy signal.
    public static let unsupportedMessage = Self("unsupportedMessage")
    /// Too few points or correspondences for the computation.
    public static let insufficientData = Self("insufficientData")
}
