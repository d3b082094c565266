public import ARVisSpatial
import Foundation

/// A WGS84 position on the ground, in degrees.
public struct GeoCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// Degrees north of the equator (−90…90).
    public var latitude: Double
    /// Degrees east of Greenwich (−180…180).
    public var longitude: Double

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "latitude, longitude" to seven decimals (about a centimetre).
    public var description: String { String(format: "%.7f, %.7f", latitude, longitude) }
}

/// A polygon on the map: an outer ring and holes, each a list of coordinates (closing point optional).
public struct GeoPolygon: Sendable, Hashable {
    /// The outer boundary.
    public var outer: [GeoCoordinate]
    /// Regions inside it that are left out.
    public var holes: [[GeoCoordinate]]

    /// Creates a polygon.
    public init(outer: [GeoCoordinate], holes: [[GeoCoordinate]] = []) {
        self.outer = outer
        self.holes = holes
    }

    /// Whether `coordinate` lies inside the outer ring and outside every hole (measured in a local
    /// frame around the polygon, so edges are straight on the ground).
    public func contains(_ coordinate: GeoCoordinate) -> Bool {
        let frame = GeoFrame(around: [self])
        return frame.area(self).contains(frame.local(coordinate))
    }

    /// The polygon's area on the ground in square metres, holes deducted.
    public var squareMetres: Double { GeoFrame(around: [self]).area(self).squareMetres }
}

/// A local metric frame on the ground around an origin: x metres east, y metres north.
///
/// Positions are the exact WGS84 → ECEF → east-north-up transform with the height dropped (an
/// orthographic projection onto the tangent plane); the way back puts the point on the ellipsoid. Over
/// 10 km, distances differ from the ground's by under 5 mm and a round trip by under a micrometre.
public struct GeoFrame: Sendable, Hashable {
    /// The frame's origin.
    public let origin: GeoCoordinate
    private let tangent: LocalTangentFrame

    /// Creates a frame around `origin`.
    public init(origin: GeoCoordinate) {
        self.origin = origin
        tangent = LocalTangentFrame(latitude: origin.latitude, longitude: origin.longitude)
    }

    /// A frame around the centre of the polygons' bounding box (the first coordinate's longitude
    /// decides which side of the antimeridian).
    public init(around polygons: [GeoPolygon]) {
        let points = polygons.flatMap(\.outer)
        guard let first = points.first else {
            self.init(origin: GeoCoordinate(latitude: 0, longitude: 0))
            return
        }
        let longitudes = points.map { Self.unwrapped($0.longitude, near: first.longitude) }
        let latitudes = points.map(\.latitude)
        let longitude = Self.unwrapped(((longitudes.min()! + longitudes.max()!) / 2), near: 0)
        self.init(origin: GeoCoordinate(latitude: (latitudes.min()! + latitudes.max()!) / 2, longitude: longitude))
    }

    /// `longitude` moved by whole turns to within 180° of `reference`.
    private static func unwrapped(_ longitude: Double, near reference: Double) -> Double {
        longitude - 360 * ((longitude - reference) / 360).rounded()
    }

    /// A coordinate's position in the frame.
    public func local(_ coordinate: GeoCoordinate) -> SIMD2<Double> {
        let enu = tangent.enu(latitude: coordinate.latitude, longitude: coordinate.longitude, altitude: 0)
        return SIMD2(enu.x, enu.y)
    }

    /// The coordinate on the ground (the ellipsoid) at a position of the frame.
    public func coordinate(_ position: SIMD2<Double>) -> GeoCoordinate {
        // Start below the tangent plane by the Earth's curvature, then walk along the normal until the
        // point lies on the ellipsoid.
        var up = -(position * position).sum() / (2 * LocalTangentFrame.semiMajorAxis)
        var result = tangent.geodetic(enu: Vec3(position.x, position.y, up))
        for _ in 0..<4 where abs(result.altitude) > 1e-7 {
            up -= result.altitude
            result = tangent.geodetic(enu: Vec3(position.x, position.y, up))
        }
        return GeoCoordinate(latitude: result.latitude, longitude: Self.unwrapped(result.longitude, near: origin.longitude))
    }

    /// A polygon as an area of the frame.
    public func area(_ polygon: GeoPolygon) -> Area {
        Area(outer: polygon.outer.map(local), holes: polygon.holes.map { $0.map(local) })
    }

    /// The horizontal distance in metres between two coordinates near this frame.
    public func distance(_ first: GeoCoordinate, _ second: GeoCoordinate) -> Double {
        let offset = local(first) - local(second)
        return (offset * offset).sum().squareRoot()
    }
}

/// A project's place on the map and how near a device must be to work on it: ReforestAR loads a
/// project's trees only within 10 m of where they were saved.
public struct ProjectLocation: Sendable, Hashable {
    /// Where the project is.
    public var coordinate: GeoCoordinate
    /// How near a device must be, in metres.
    public var radius: Double

    /// Creates a project location with ReforestAR's 10 m radius unless told otherwise.
    public init(_ coordinate: GeoCoordinate, radius: Double = 10) {
        self.coordinate = coordinate
        self.radius = radius
    }

    /// The outcome of a check.
    public enum Check: Sendable, Hashable {
        /// Near enough; carries the distance in metres.
        case within(Double)
        /// Too far (ReforestAR's code 6); carries the distance in metres.
        case tooFar(Double)
    }

    /// Whether a device at `device` may work on the project.
    public func check(_ device: GeoCoordinate) -> Check {
        let distance = GeoFrame(origin: coordinate).distance(coordinate, device)
        return distance <= radius ? .within(distance) : .tooFar(distance)
    }
}

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
