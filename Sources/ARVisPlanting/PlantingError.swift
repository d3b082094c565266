public import ARVisSupport

/// The error ARVisPlanting throws: an area it cannot plant, or a plan that would plant nothing.
public typealias PlantingError = ModuleError<PlantingErrorDomain>

/// The codes of ``PlantingError``.
public enum PlantingErrorDomain {}

extension ErrorCode<PlantingErrorDomain> {
    /// A ring has an edge more than 180° of longitude long: unsplit across the antimeridian.
    public static let crossesAntimeridian = Self("crossesAntimeridian")
    /// The area reaches closer to a pole than the local frame serves.
    public static let tooCloseToPole = Self("tooCloseToPole")
    /// The area reaches farther from its centre than one local frame serves.
    public static let tooLarge = Self("tooLarge")
    /// A ring crosses itself or another ring of its polygon.
    public static let selfIntersecting = Self("selfIntersecting")
    /// The spacing is so fine for the area that the spatial grid would exhaust memory.
    public static let tooManyCells = Self("tooManyCells")
    /// The plan would hold more trees than the caller allows (estimated before planting).
    public static let tooManyTrees = Self("tooManyTrees")
    /// The plan has no tree, and the reason is known.
    public static let nothingPlanted = Self("nothingPlanted")
}
