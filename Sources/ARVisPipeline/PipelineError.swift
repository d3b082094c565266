public import ARVisSupport

/// The error ARVisPipeline throws: a code, a one-line message, the resource or input it concerns,
/// and the underlying error.
public typealias PipelineError = ModuleError<PipelineErrorDomain>

/// The codes of ``PipelineError``.
public enum PipelineErrorDomain {}

extension ErrorCode<PipelineErrorDomain> {
    /// The resource policy forbids the resource: a file outside the allowed folder, a private
    /// address, a scheme that loads nothing.
    public static let refused = Self("refused")
    /// The file or page does not exist.
    public static let notFound = Self("notFound")
    /// The resource exists but could not be read (a folder, a device, no permission, bad encoding).
    public static let unreadable = Self("unreadable")
    /// The resource is larger than the policy's limit.
    public static let tooLarge = Self("tooLarge")
    /// The resource did not arrive in time.
    public static let timedOut = Self("timedOut")
    /// The server answered with an error status.
    public static let httpStatus = Self("httpStatus")
    /// The network failed: no such host, connection refused, TLS failure, too many redirects.
    public static let network = Self("network")
    /// The input cannot be used (a document of the wrong kind, a bad parameter).
    public static let invalidInput = Self("invalidInput")
    /// The work would exceed a documented limit (marks, cells, trees).
    public static let limitExceeded = Self("limitExceeded")
}
