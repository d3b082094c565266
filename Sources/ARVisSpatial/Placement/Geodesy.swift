public import ARVisSpec
import Foundation

/// WGS84 coordinates to a local east-north-up frame around an origin, through Earth-centred
/// Earth-fixed coordinates (exact: no flat-Earth approximation).
public struct LocalTangentFrame: Sendable, Hashable {
    /// The origin's latitude and longitude in degrees, altitude in metres above the ellipsoid.
    public var latitude: Double, longitude: Double, altitude: Double
    private let originECEF: Vec3

    /// WGS84's semi-major axis in metres.
    public static let semiMajorAxis = 6_378_137.0
    /// WGS84's flattening.
    public static let flattening = 1 / 298.257_223_563

    /// Creates a frame around an origin.
    public init(latitude: Double, longitude: Double, altitude: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        originECEF = Self.ecef(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// Earth-centred, Earth-fixed coordinates in metres.
    public static func ecef(latitude: Double, longitude: Double, altitude: Double) -> Vec3 {
        let e2 = flattening * (2 - flattening)
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let n = semiMajorAxis / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        return Vec3(
            (n + altitude) * cos(phi) * cos(lambda), (n + altitude) * cos(phi) * sin(lambda),
            (n * (1 - e2) + altitude) * sin(phi))
    }

    /// A position as (east, north, up) metres from the origin.
    public func enu(latitude: Double, longitude: Double, altitude: Double) -> Vec3 {
        let d = Self.ecef(latitude: latitude, longitude: longitude, altitude: altitude) - originECEF
        let phi = self.latitude * .pi / 180
        let lambda = self.longitude * .pi / 180
        let east = -sin(lambda) * d.x + cos(lambda) * d.y
        let north = -sin(phi) * cos(lambda) * d.x - sin(phi) * sin(lambda) * d.y + cos(phi) * d.z
        let up = cos(phi) * cos(lambda) * d.x + cos(phi) * sin(lambda) * d.y + sin(phi) * d.z
        return Vec3(east, north, up)
    }

    /// The latitude, longitude and altitude of an (east, north, up) position (Bowring's iteration, to
    /// well under a millimetre).
    public func geodetic(enu: Vec3) -> (latitude: Double, longitude: Double, altitude: Double) {
        let phi0 = latitude * .pi / 180
        let lambda0 = longitude * .pi / 180
        let x =
            originECEF.x - sin(lambda0) * enu.x - sin(phi0) * cos(lambda0) * enu.y + cos(phi0) * cos(lambda0) * enu.z
        let y =
            originECEF.y + cos(lambda0) * enu.x - sin(phi0) * sin(lambda0) * enu.y + cos(phi0) * sin(lambda0) * enu.z
        let z = originECEF.z + cos(phi0) * enu.y + sin(phi0) * enu.z
        let e2 = Self.flattening * (2 - Self.flattening)
        let p = (x * x + y * y).squareRoot()
        var phi = atan2(z, p * (1 - e2))
        var height = 0.0
        for _ in 0..<6 {
            let n = Self.semiMajorAxis / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            height = p / cos(phi) - n
            phi = atan2(z, p * (1 - e2 * n / (n + height)))
        }
        return (phi * 180 / .pi, atan2(y, x) * 180 / .pi, height)
    }

    /// The pose of a geo anchor in this frame, with ARVis's scene axes (x east, y up, z south): the
    /// anchor's −z faces `heading` degrees clockwise from true north.
    public func pose(latitude: Double, longitude: Double, altitude: Double, heading: Double) -> Similarity {
        let local = enu(latitude: latitude, longitude: longitude, altitude: altitude)
        // Heading clockwise from north is a rotation about +y (up) by −heading.
        return Similarity(
            rotation: Rotation(axis: Vec3(0, 1, 0), angle: -heading * .pi / 180),
            translation: Vec3(local.x, local.z, -local.y))
    }
}
