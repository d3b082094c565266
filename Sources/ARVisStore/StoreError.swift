public import ARVisSupport

/// An error from ARVisStore: a missing or conflicting row, a failed precondition, or a database that
/// does not answer.
public typealias StoreError = ModuleError<StoreErrorDomain>

/// The codes of ``StoreError``.
public enum StoreErrorDomain {}

extension ErrorCode<StoreErrorDomain> {
    /// No such account, project, spec or version.
    public static let notFound = Self("notFound")
    /// The row exists already (a taken username or slug) or the change would break a rule.
    public static let conflict = Self("conflict")
    /// The write was made against a version that is no longer the latest.
    public static let preconditionFailed = Self("preconditionFailed")
    /// A value the store cannot keep (a name too long, an unknown role).
    public static let invalid = Self("invalid")
    /// The database failed or cannot be opened.
    public static let unavailable = Self("unavailable")
}
