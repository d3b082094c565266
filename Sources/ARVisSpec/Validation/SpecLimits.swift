/// The legal range of the grammar's numbers beyond their sign: what validation enforces, so that no
/// document that validates can make a renderer, a scene export or a planner overflow.
///
/// The bounds are far beyond any real widget or scene (an iPhone screen is about 400 points wide; a
/// 10 000-point widget is 25 screens), and every message that enforces one names it.
public enum SpecLimits {
    /// The largest length in points: widths, heights, spacing, padding, radii, line widths, chart sizes.
    public static let largestLength = 10_000.0
    /// The largest font size in points.
    public static let largestFontSize = 1_000.0
    /// The largest physical size or scale factor: a target's printed width in metres, a model's scale.
    public static let largestPhysicalSize = 1_000.0
    /// The largest widget scale, in metres per point (1 point = 1 metre).
    public static let largestWidgetScale = 1.0
    /// The largest magnitude of a number in a fixed-length list: positions and offsets in metres,
    /// rotation components, sizes and paddings.
    public static let largestCoordinate = 100_000.0
    /// The most calendar units between two date ticks.
    public static let largestStrideCount = 10_000
}
