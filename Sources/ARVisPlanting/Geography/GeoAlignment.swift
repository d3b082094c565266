public import ARVisSpatial
public import ARVisSpec
import Foundation

/// An AR session aligned to a project's frame from where the device is on the Earth: one
/// geolocation fix and one compass reading, taken while the session knew the device's pose.
///
/// Both frames are gravity-aligned with y up, so they differ by a turn about y and a translation.
/// The device's forward direction in the session and its compass heading give the session's heading
/// (through ``SessionAlignment``); its fix, less its position in the session, gives the session's
/// origin on the map. The project's frame sits at its location with its −z axis at its heading.
///
/// The result is as good as the readings: the fix's error everywhere, plus the heading's error
/// times the distance from the device (``expectedError(atDistance:)``).
public struct GeoAlignment: Sendable, Hashable {
    /// A fix and a compass reading, with the device's pose in the session when they were taken.
    public struct Reading: Sendable, Hashable {
        /// Where the device was.
        public var coordinate: GeoCoordinate
        /// The fix's error radius, metres (the Geolocation API's `accuracy`).
        public var accuracy: Double
        /// Degrees clockwise from true north of the device's forward direction.
        public var heading: Double
        /// The heading's error, degrees.
        public var headingAccuracy: Double
        /// The device's position in the session frame.
        public var position: Vec3
        /// The device's forward direction (the camera's −z) in the session frame; it must not point
        /// straight up or down.
        public var forward: Vec3

        /// Creates a reading.
        public init(
            coordinate: GeoCoordinate, accuracy: Double, heading: Double, headingAccuracy: Double, position: Vec3,
            forward: Vec3
        ) {
            (self.coordinate, self.accuracy, self.heading) = (coordinate, accuracy, heading)
            (self.headingAccuracy, self.position, self.forward) = (headingAccuracy, position, forward)
        }
    }

    /// Where a project's frame is: its origin on the Earth and the compass heading of its −z axis.
    public struct ProjectSite: Sendable, Hashable {
        /// The frame's origin.
        public var origin: GeoCoordinate
        /// Degrees clockwise from north of the frame's −z axis.
        public var heading: Double

        /// Creates a site.
        public init(origin: GeoCoordinate, heading: Double) {
            (self.origin, self.heading) = (origin, heading)
        }
    }

    /// Why a reading cannot align a session.
    public enum Problem: Error, Sendable, Hashable {
        /// The device looked straight up or down: its forward direction has no heading.
        case noForwardDirection
        /// The device is farther from the project than `limit` metres (a fix of somewhere else).
        case tooFar(distance: Double, limit: Double)
    }

    /// The farthest a device may be from the project's origin, metres.
    public static let reach = 10_000.0

    /// The rigid transform from the project's frame into the session's.
    public let sessionFromProject: Matrix4
    /// The fix's error radius, metres.
    public let accuracy: Double
    /// The heading's error, degrees.
    public let headingAccuracy: Double

    /// Aligns a session from one reading, with the project's ground at `groundHeight` in the session.
    /// - Throws: ``Problem`` when the reading cannot.
    public init(_ reading: Reading, site: ProjectSite, groundHeight: Double = 0) throws(Problem) {
        let forward = SIMD2(reading.forward.x, -reading.forward.z)  // (right, ahead) of the session's −z
        guard (forward * forward).sum() > 1e-12 else { throw .noForwardDirection }
        let map = GeoFrame(origin: site.origin)
        let distance = map.distance(site.origin, reading.coordinate)
        guard distance <= Self.reach else { throw .tooFar(distance: distance, limit: Self.reach) }
        // The session's −z heading: the device's, less the device's turn from the session's −z.
        let turn = atan2(forward.x, forward.y) * 180 / .pi
        var session = SessionAlignment(origin: .zero, heading: reading.heading - turn, groundHeight: groundHeight)
        session.origin = map.local(reading.coordinate) - session.planPosition(reading.position)
        let project = SessionAlignment(origin: .zero, heading: site.heading)
        func inSession(_ point: Vec3) -> Vec3 {
            let onGround = session.sessionPosition(project.planPosition(point))
            return Vec3(onGround.x, onGround.y + point.y, onGround.z)
        }
        let origin = inSession(.zero)
        let x = inSession(Vec3(1, 0, 0)) - origin
        let z = inSession(Vec3(0, 0, 1)) - origin
        sessionFromProject = Matrix4(columns: [
            SIMD4(x.x, 0, x.z, 0), SIMD4(0, 1, 0, 0), SIMD4(z.x, 0, z.z, 0), SIMD4(origin.x, origin.y, origin.z, 1),
        ])
        (accuracy, headingAccuracy) = (reading.accuracy, reading.headingAccuracy)
    }

    /// The error to expect at `distance` metres from the device: the fix's, and the heading's
    /// error swung over the distance.
    public func expectedError(atDistance distance: Double) -> Double {
        let swing = distance * errorPerMetre
        return (accuracy * accuracy + swing * swing).squareRoot()
    }

    /// How far a point moves per metre from the device when the turn is off by the heading's error.
    public var errorPerMetre: Double { sin(min(abs(headingAccuracy), 90) * .pi / 180) }
}
