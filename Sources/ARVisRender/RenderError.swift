/// The error ARVisRender throws: a widget would need more than a ``RenderLimits`` allows.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable { case limitExceeded }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The widget needs more cells, marks or panels than the limits allow.
        public static let limitExceeded = Code(.limitExceeded)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line an author can act on: which limit, what the widget needs, how to raise it.
    public var message: String
    /// The widget the error is about.
    public var widget: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, widget: String) {
        self.code = code
        self.message = message
        self.widget = widget
    }

    /// `WIDGET: MESSAGE`.
    public var description: String { "\(widget): \(message)" }
}
