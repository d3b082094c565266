import ARVisSpatial
import ARVisSpec
import Foundation

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
        return GeoCoordinate(
            latitude: result.latitude, longitude: Self.unwrapped(result.longitude, near: origin.longitude))
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
