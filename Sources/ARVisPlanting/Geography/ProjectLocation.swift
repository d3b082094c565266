import Foundation

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
