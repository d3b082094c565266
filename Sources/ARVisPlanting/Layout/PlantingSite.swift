/// Where trees may go, in local metres: one or more areas, minus exclusion zones, around trees that
/// already stand.
public struct PlantingSite: Sendable, Hashable {
    /// The planting areas (assumed not to overlap one another).
    public var areas: [Area]
    /// Zones where nothing may be planted (roads, streams, buildings); they may reach outside the
    /// areas, and a hole in a zone is plantable again.
    public var exclusions: [Area]
    /// Trees already standing: new trees keep their distance from them too.
    public var existing: [StandingTree]

    /// Creates a site.
    public init(areas: [Area], exclusions: [Area] = [], existing: [StandingTree] = []) {
        self.areas = areas
        self.exclusions = exclusions
        self.existing = existing
    }

    /// Creates a site of one area.
    public init(_ area: Area) { self.init(areas: [area]) }

    /// Whether a tree may stand at `point`: inside an area, outside its holes and every exclusion zone.
    /// (Distances to other trees are not part of this check.)
    public func allows(_ point: SIMD2<Double>) -> Bool {
        areas.contains { $0.contains(point) } && !exclusions.contains { $0.contains(point) }
    }

    /// The planting area in square metres: the areas minus their holes (exclusion zones not deducted).
    public var squareMetres: Double { areas.reduce(0) { $0 + $1.squareMetres } }

    /// The smallest box around every area.
    public var bounds: (minimum: SIMD2<Double>, maximum: SIMD2<Double>) {
        let boxes = areas.map(\.bounds)
        guard let first = boxes.first else { return (.zero, .zero) }
        return boxes.dropFirst().reduce(first) {
            (pointwiseMin($0.minimum, $1.minimum), pointwiseMax($0.maximum, $1.maximum))
        }
    }

    /// An index of the standing trees (nil when there are none).
    func standingIndex() -> TreeIndex? {
        guard !existing.isEmpty else { return nil }
        var index = TreeIndex(cellSize: max(existing.map(\.spacing).max() ?? 1, 0.01))
        for tree in existing { index.insert(tree.position, spacing: tree.spacing) }
        return index
    }
}

/// A tree that already stands on the site.
public struct StandingTree: Sendable, Hashable {
    /// Its position in local metres.
    public var position: SIMD2<Double>
    /// The distance it keeps from new trees (a new tree keeps the larger of this and its own).
    public var spacing: Double
    /// Its species, when known.
    public var species: String?

    /// Creates a standing tree.
    public init(position: SIMD2<Double>, spacing: Double, species: String? = nil) {
        self.position = position
        self.spacing = spacing
        self.species = species
    }
}
