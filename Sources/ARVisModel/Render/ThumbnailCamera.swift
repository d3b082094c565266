public import ARVisSpatial
import Foundation

/// The camera of a thumbnail: it looks at the centre of the model's bounding sphere from the front,
/// a little to the right and above (azimuth 30°, elevation 20°, +Y up), with a 30° vertical field
/// of view, far enough back that the whole sphere fits the square image.
///
/// The framing is documented so that any renderer reproduces it: the sphere is the model's
/// axis-aligned box's (centre `c`, radius `r` half the box's diagonal), the eye is at
/// `c + d · (sin 30° cos 20°, sin 20°, cos 30° cos 20°)` with `d = 1.05 · r / sin 15°`.
public struct ThumbnailCamera: Sendable, Hashable, Codable {
    /// Where the camera is.
    public var eye: SIMD3<Double>
    /// What it looks at (the sphere's centre).
    public var target: SIMD3<Double>
    /// Which way is up on the image.
    public var up: SIMD3<Double>
    /// The vertical field of view in degrees.
    public var fieldOfView: Double

    /// Azimuth and elevation of the default view, in degrees.
    public static let azimuth = 30.0, elevation = 20.0, defaultFieldOfView = 30.0, margin = 1.05

    /// The camera framing `bounds`; a degenerate or missing box gets a unit sphere at the origin.
    public init(framing bounds: Box?) {
        let center = bounds?.center ?? .zero
        var radius = (bounds?.extent.length ?? 0) / 2
        if !(radius > 0 && radius.isFinite) { radius = 1 }
        let a = Self.azimuth * .pi / 180
        let e = Self.elevation * .pi / 180
        let direction = SIMD3(sin(a) * cos(e), sin(e), cos(a) * cos(e))
        let distance = Self.margin * radius / sin(Self.defaultFieldOfView * .pi / 360)
        eye = center + distance * direction
        target = center
        up = SIMD3(0, 1, 0)
        fieldOfView = Self.defaultFieldOfView
    }

    /// The distance from the eye to the target.
    var distance: Double { (eye - target).length }
}
