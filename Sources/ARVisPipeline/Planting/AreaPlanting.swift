public import ARVisPlanting
public import ARVisSupport
import Foundation

/// A plan for an area on the map, from its GeoJSON features to trees with coordinates: the site
/// checks, the local frame, exclusion zones, standing trees and their clearance, the grid limit
/// and the plan itself. What `arvis plant` does, and what a server does for a planting project.
///
/// ```swift
/// let area = try GeoJSONReader.read(bytes, file: "parcel.geojson")
/// let planting = try AreaPlanting(area: area, named: "parcel.geojson", mix: .uniform(spacing: 3), layout: .poisson)
/// let geojson = GeoJSONWriter.write(planting.plan, frame: planting.frame)
/// ```
public struct AreaPlanting: Sendable {
    /// The local frame the plan was made in (around the area's centre).
    public let frame: GeoFrame
    /// The plan, in the frame's metres.
    public let plan: PlantingPlan

    /// Plans `area` (polygons to plant; points are standing trees).
    /// - Parameters:
    ///   - named: the area's file name, for messages.
    ///   - exclusions: zones kept clear, each with its name; their points are standing trees too.
    ///   - count: how many trees to spread over the whole area (nil: as many as fit).
    /// - Throws: ``PlantingError`` when the area cannot be planted in one local frame, the spacing
    ///   needs more grid cells than ``PoissonDisk/maximumCells``, or no tree fits.
    public init(
        area: GeoFeatures, named: String, exclusions: [(features: GeoFeatures, name: String)] = [], mix: SpeciesMix,
        layout: PlantingLayout, count: Int? = nil, seed: UInt64 = 1, maximumTrees: Int? = nil
    ) throws(PlantingError) {
        guard !area.polygons.isEmpty else {
            throw PlantingError(
                .nothingPlanted, "the file holds no Polygon or MultiPolygon: nothing to plant", location: named)
        }
        try SiteCheck.check(area.polygons, file: named)
        for zone in exclusions { try SiteCheck.check(zone.features.polygons, file: zone.name) }
        let frame = GeoFrame(around: area.polygons)
        let standing = (area.points + exclusions.flatMap(\.features.points)).map { point in
            StandingTree(
                position: frame.local(point.coordinate),
                spacing: point.spacing ?? point.species.flatMap { SpeciesCatalog.standard.species(named: $0)?.spacing }
                    ?? mix.smallestSpacing,
                species: point.species)
        }
        let site = PlantingSite(
            areas: area.polygons.map(frame.area),
            exclusions: exclusions.flatMap { $0.features.polygons.map(frame.area) },
            existing: standing)
        let cells = PoissonDisk.cells(for: site, mix: mix)
        if case .reforestar = layout {
        } else if cells > PoissonDisk.maximumCells {
            throw PlantingError(
                .tooManyCells,
                String(
                    format:
                        "at %g m spacing this area needs %.2g grid cells, more than the limit of %.0g: use a larger spacing or a smaller area",
                    mix.smallestSpacing, cells, PoissonDisk.maximumCells), location: named)
        }
        if let maximumTrees {
            let estimate = Self.largestTreeCount(site, mix: mix, count: count)
            guard estimate <= Double(maximumTrees) else {
                throw PlantingError(
                    .tooManyTrees,
                    String(
                        format:
                            "at %g m spacing %.0f m² holds up to %.0f trees, more than the limit of %d: use a larger spacing, a smaller area or a count",
                        mix.smallestSpacing, site.squareMetres, estimate.rounded(.up), maximumTrees), location: named)
            }
        }
        let plan = AreaPlanner.plan(site, mix: mix, layout: layout, count: count, seed: seed)
        if plan.trees.isEmpty && count != 0 {
            var advice = ""
            if case .reforestar(let treesPerTap) = layout {
                advice = " (each ReforestAR tap plants all \(treesPerTap) trees or none: try fewer trees per tap)"
            }
            throw PlantingError(
                .nothingPlanted,
                String(
                    format: "no tree fits in %.0f m² at %g m spacing%@", site.squareMetres, mix.smallestSpacing, advice),
                location: named)
        }
        self.frame = frame
        self.plan = plan
    }

    /// The most trees a plan of `site` can hold: the densest packing at the smallest spacing (a
    /// hexagonal lattice, one tree per √3/2·s²), or `count` when that is fewer.
    static func largestTreeCount(_ site: PlantingSite, mix: SpeciesMix, count: Int?) -> Double {
        let spacing = mix.smallestSpacing
        let fits = site.squareMetres / (spacing * spacing * 3.0.squareRoot() / 2)
        return count.map { min(Double($0), fits) } ?? fits
    }
}
