public import ARVisSupport

/// The error scene export throws: a scene that cannot be written in the format asked for.
public typealias ExportError = ModuleError<ExportErrorDomain>

/// The codes of ``ExportError``.
public enum ExportErrorDomain {}

extension ErrorCode<ExportErrorDomain> {
    /// A pose or size is NaN or infinite, which glTF's JSON cannot hold.
    public static let notFinite = Self("notFinite")
    /// The file would pass a format limit (a GLB is at most 4 GiB).
    public static let tooLarge = Self("tooLarge")
}
