/// A width and a height in points (drawing units, CSS pixels at 1×), written `[width, height]` in a
/// spec, where both must be positive.
public struct Size: Sendable, Hashable {
    /// The horizontal length.
    public var width: Double
    /// The vertical length.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Nothing at all.
    public static let zero = Size(width: 0, height: 0)
}
