public import ARVisSupport

/// The error ARVisRender throws: a widget would need more than a ``RenderLimits`` allows.
public typealias RenderError = ModuleError<RenderErrorDomain>

/// The codes of ``RenderError``.
public enum RenderErrorDomain {}

extension ErrorCode<RenderErrorDomain> {
    /// The widget needs more cells, marks or panels than the limits allow.
    public static let limitExceeded = Self("limitExceeded")
}
