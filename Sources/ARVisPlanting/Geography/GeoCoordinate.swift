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
