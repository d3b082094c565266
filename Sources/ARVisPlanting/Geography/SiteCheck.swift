public import ARVisSupport
import Foundation

/// Checks that polygons on the map can be planted in one local frame: no ring crosses the
/// antimeridian unsplit or comes near a pole, the area stays within ``maximumRadius`` of its
/// centre, and no ring crosses itself or another ring of its polygon.
///
/// GeoJSON draws every edge straight across longitude and latitude (RFC 7946 §3.1.9), so an edge
/// from 179.9° to −179.9° goes the long way round the Earth; such polygons must be split at 180°.
public enum SiteCheck {
    /// How far from its centre an area may reach, in metres. Over that, the tangent plane's scale
    /// drifts by more than a centimetre per 50 m.
    public static let maximumRadius = 50_000.0
    /// The highest latitude, north or south, an area may reach.
    public static let maximumLatitude = 85.0

    /// Checks `polygons`, read from `file`.
    /// - Throws: ``PlantingError`` naming the polygon, ring and coordinates at fault.
    public static func check(_ polygons: [GeoPolygon], file: String) throws(PlantingError) {
        for (polygonIndex, polygon) in polygons.enumerated() {
            for (ringIndex, ring) in ([polygon.outer] + polygon.holes).enumerated() {
                try checkCoordinates(ring, at: "\(file): polygon \(polygonIndex + 1), ring \(ringIndex + 1)")
            }
        }
        let frame = GeoFrame(around: polygons)
        for (polygonIndex, polygon) in polygons.enumerated() {
            let rings = ([polygon.outer] + polygon.holes).map { $0.map(frame.local) }
            for ring in rings {
                guard let far = ring.max(by: { length($0) < length($1) }), length(far) > maximumRadius else { continue }
                throw PlantingError(
                    .tooLarge,
                    String(
                        format:
                            "the area reaches %.0f km from its centre, more than the %.0f km one plan covers: plant it in parts",
                        length(far) / 1000, maximumRadius / 1000),
                    location: "\(file): polygon \(polygonIndex + 1)")
            }
            if let crossing = SegmentCrossings.first(in: rings) {
                let point = frame.coordinate(crossing.point)
                throw PlantingError(
                    .selfIntersecting,
                    String(
                        format:
                            "ring %d, edge %d, crosses ring %d, edge %d, at longitude %.7f, latitude %.7f: a ring must not cross itself or another",
                        crossing.first.ring + 1, crossing.first.edge + 1, crossing.second.ring + 1,
                        crossing.second.edge + 1,
                        point.longitude, point.latitude),
                    location: "\(file): polygon \(polygonIndex + 1)")
            }
        }
    }

    private static func checkCoordinates(_ ring: [GeoCoordinate], at location: String) throws(PlantingError) {
        for (index, coordinate) in ring.enumerated() {
            if abs(coordinate.latitude) > maximumLatitude {
                throw PlantingError(
                    .tooCloseToPole,
                    String(
                        format:
                            "latitude %.6f (vertex %d) is beyond %.0f°: the local frame does not serve the polar regions",
                        coordinate.latitude, index + 1, maximumLatitude), location: location)
            }
            guard index > 0 else { continue }
            let previous = ring[index - 1]
            if abs(coordinate.longitude - previous.longitude) > 180 {
                throw PlantingError(
                    .crossesAntimeridian,
                    String(
                        format:
                            "the edge from longitude %.6f to %.6f (vertices %d–%d) is longer than 180°: GeoJSON draws it the long way round the Earth; split the polygon at the antimeridian (RFC 7946 §3.1.9)",
                        previous.longitude, coordinate.longitude, index, index + 1), location: location)
            }
        }
    }

    private static func length(_ vector: SIMD2<Double>) -> Double { (vector * vector).sum().squareRoot() }
}
