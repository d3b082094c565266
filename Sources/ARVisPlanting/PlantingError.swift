/// The error ARVisPlanting throws: an area it cannot plant, or a plan that would plant nothing.
public struct PlantingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as an extensible set of codes.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case crossesAntimeridian, tooCloseToPole, tooLarge, selfIntersecting, tooManyCells, tooManyTrees, nothingPlanted
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A ring has an edge more than 180° of longitude long: unsplit across the antimeridian.
        public static let crossesAntimeridian = Code(.crossesAntimeridian)
        /// The area reaches closer to a pole than the local frame serves.
        public static let tooCloseToPole = Code(.tooCloseToPole)
        /// The area reaches farther from its centre than one local frame serves.
        public static let tooLarge = Code(.tooLarge)
        /// A ring crosses itself or another ring of its polygon.
        public static let selfIntersecting = Code(.selfIntersecting)
        /// The spacing is so fine for the area that the spatial grid would exhaust memory.
        public static let tooManyCells = Code(.tooManyCells)
        /// The plan would hold more trees than the caller allows (estimated before planting).
        public static let tooManyTrees = Code(.tooManyTrees)
        /// The plan has no tree, and the reason is known.
        public static let nothingPlanted = Code(.nothingPlanted)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// One line an author can act on.
    public var message: String
    /// Where in the input: a file and the coordinates' path, such as `area.geojson: features[0] ring 0`.
    public var location: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, location: String? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// `LOCATION: MESSAGE`.
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}
