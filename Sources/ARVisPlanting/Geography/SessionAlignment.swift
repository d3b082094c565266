import ARVisSpatial
public import ARVisSpec
import Foundation

/// How an AR session's world frame lies in a plan's frame, so trees can be shown where they are
/// planned: the session origin's position in the plan, and the compass heading of the session's −z
/// axis. Session axes are ARKit's: x right, y up, −z forward.
public struct SessionAlignment: Sendable, Hashable {
    /// Where the session's origin is, in plan metres (x east, y north).
    public var origin: SIMD2<Double>
    /// Degrees clockwise from true north that the session's −z axis points.
    public var heading: Double
    /// The height of the ground in the session frame.
    public var groundHeight: Double

    /// Creates an alignment.
    public init(origin: SIMD2<Double>, heading: Double, groundHeight: Double = 0) {
        self.origin = origin
        self.heading = heading
        self.groundHeight = groundHeight
    }

    /// An alignment whose origin is at `coordinate` in `frame`.
    public init(origin coordinate: GeoCoordinate, heading: Double, in frame: GeoFrame, groundHeight: Double = 0) {
        self.init(origin: frame.local(coordinate), heading: heading, groundHeight: groundHeight)
    }

    /// A plan position in the session frame.
    public func sessionPosition(_ position: SIMD2<Double>) -> Vec3 {
        let offset = position - origin
        let angle = heading * .pi / 180
        let forward = offset.x * sin(angle) + offset.y * cos(angle)
        let right = offset.x * cos(angle) - offset.y * sin(angle)
        return Vec3(right, groundHeight, -forward)
    }

    /// The plan position below a session-frame position.
    public func planPosition(_ position: Vec3) -> SIMD2<Double> {
        let angle = heading * .pi / 180
        let (right, forward) = (position.x, -position.z)
        return origin + SIMD2(right * cos(angle) + forward * sin(angle), -right * sin(angle) + forward * cos(angle))
    }
}
