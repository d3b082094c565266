import ARVisGraphics
import ARVisPipeline
import ARVisPlanting
import ARVisSpec
import ARVisSupport
import ArgumentParser
import Foundation

/// `arvis plant`: fill an area on the map with trees at correct spacing.
struct PlantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plant",
        abstract: "Fill an area on the map with trees at correct spacing and write the plan as GeoJSON (and SVG).",
        discussion: """
            The area is a GeoJSON Polygon or MultiPolygon (WGS84 longitude, latitude), holes included; Points \
            in it are trees already standing. Every new tree stands inside the area, outside its holes and the \
            --exclude zones, and keeps from every other tree at least the larger of the two trees' spacings.

            Layouts:
              poisson     random, filled until nothing fits (~0.8 trees per spacing²)
              hex         triangular rows, turned by --orientation (1.15 per spacing²)
              reforestar  ReforestAR's tap groups of --trees-per-tap, with its rules

            With --count, spacings widen evenly until about that many trees cover the whole \
            area; when even the species' spacing cannot fit them, the plan says how many \
            are missing.

            Examples:
              arvis plant --area Examples/planting-area.geojson --species sobreiro:3 \\
                  --species pinea:1 -o plan.geojson --svg plan.svg
              arvis plant --area a.geojson --species "pinheiro manso:40%" \\
                  --species azinheira -o plan.geojson
              arvis plant --area a.geojson --spacing 3 --layout hex --orientation 30 \\
                  --exclude roads.geojson -o plan.geojson
              arvis plant --area a.geojson --species "Pinus pinea" --count 400 \\
                  --seed 7 -o plan.geojson
            """)

    enum Layout: String, ExpressibleByArgument, CaseIterable {
        case poisson, hex, reforestar
    }

    @Option(
        help: ArgumentHelp(
            "The area to plant: a GeoJSON file with Polygon or MultiPolygon features.", valueName: "area.geojson"))
    var area: String

    @Option(
        help: ArgumentHelp(
            "A species from the catalog (Latin or common name, see `arvis species`), with its share: NAME, NAME:3 (a weight) or NAME:40% (of all trees; species without a share split the rest). Repeat for a mix.",
            valueName: "name[:share]"))
    var species: [String] = []

    @Option(
        help: ArgumentHelp(
            "Metres between trees, for every species (default: each species' catalog spacing, or 3 m without --species).",
            valueName: "m"))
    var spacing: Double?

    @Option(help: "How trees are laid out: poisson, hex or reforestar.")
    var layout: Layout = .poisson

    @Option(help: ArgumentHelp("Degrees anticlockwise from east of the hex layout's rows.", valueName: "degrees"))
    var orientation = 0.0

    @Option(
        name: .customLong("trees-per-tap"),
        help: "Trees per tap of the reforestar layout, 1 to 100 (ReforestAR's app offers 1–10).")
    var treesPerTap = 10

    @Option(help: "How many trees to plant, spread over the whole area (default: as many as fit).")
    var count: Int?

    @Option(help: "The random seed: the same seed and inputs give the same plan.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "Zones to keep clear: a GeoJSON file of polygons (its points count as standing trees). Repeatable.",
            valueName: "zones.geojson"))
    var exclude: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also give each tree its position in an AR session started at LAT,LON whose -z faces HEADING degrees clockwise from north (a \"session\": [x, y, z] property, metres; y is 0 on the ground).",
            valueName: "lat,lon,heading"))
    var session: String?

    @OptionGroup var reporting: ReportingOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Where to write the plan's GeoJSON (default: standard output, with the summary on standard error).",
            valueName: "plan.geojson"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Also draw the plan: area, holes, zones, trees by species, scale bar and legend. SVG, or PNG when the name ends in .png.",
            valueName: "plan.svg"))
    var svg: String?

    func validate() throws {
        if let output, output != "-", GeoJSONFormat(path: output) == nil {
            throw ValidationError("-o \(output): the plan is GeoJSON; name it .geojson or .json")
        }
        if let svg, ![.svg, .png].contains(WidgetFormat(path: svg)) {
            throw ValidationError("--svg \(svg): the drawing is written as .svg or .png")
        }
        if let spacing, !(spacing > 0) { throw ValidationError("--spacing must be greater than 0, found \(spacing)") }
        if let spacing, !(spacing <= 1000) {
            throw ValidationError("--spacing must be at most 1000 metres, found \(spacing)")
        }
        if let count, count < 0 { throw ValidationError("--count cannot be negative") }
        guard orientation.isFinite else { throw ValidationError("--orientation must be a number of degrees") }
        guard (1...100).contains(treesPerTap) else {
            throw ValidationError("--trees-per-tap must be between 1 and 100")
        }
        _ = try mix(noting: false)
        _ = try sessionOrigin()
    }

    /// The --session origin and heading.
    func sessionOrigin() throws -> (GeoCoordinate, Double)? {
        guard let session else { return nil }
        let parts = session.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, parts.allSatisfy(\.isFinite), abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
            throw ValidationError(
                "--session is LATITUDE,LONGITUDE,HEADING in degrees, such as 39.7436,-8.8071,90; got \(session)")
        }
        return (GeoCoordinate(latitude: parts[0], longitude: parts[1]), parts[2])
    }

    /// The species mix from --species and --spacing; with `noting`, says which species a forgiven
    /// typo was taken for.
    func mix(noting: Bool = true) throws -> SpeciesMix {
        guard !species.isEmpty else { return .uniform(spacing: spacing ?? 3) }
        let arguments = try species.map(SpeciesArgument.init)
        let shares = try SpeciesArgument.shares(arguments)
        return SpeciesMix(
            try zip(arguments, shares).map { argument, share in
                let found = try Self.catalogSpecies(argument.name, noting: noting)
                return SpeciesMix.Entry(name: found.latinName, spacing: spacing ?? found.spacing, share: share)
            })
    }

    /// The catalog species `name` denotes, or an error that lists what it might have meant.
    static func catalogSpecies(_ name: String, noting: Bool) throws -> Species {
        switch SpeciesCatalog.standard.resolve(name) {
        case .found(let species):
            return species
        case .forgiven(let species):
            if noting {
                Console.error(
                    "note: --species \(name) is taken as \(species.latinName) (\(species.portugueseNames.first ?? ""))")
            }
            return species
        case .ambiguous(let candidates):
            let list = candidates.map { "\($0.latinName) (\($0.portugueseNames.first ?? ""))" }
            throw ValidationError(
                "--species \(name): did you mean \(list.joined(separator: ", "))? Give enough of the name to pick one.")
        case .unknown:
            throw ValidationError(
                "--species \(name): no species of the catalog is called that; `arvis species` lists them")
        }
    }

    func run() throws {
        let areaFeatures = try Self.features(area)
        let zones = try exclude.map { (features: try Self.features($0), name: $0) }
        let mix = try mix()
        reporting.progress("planting \(area)…")
        defer { Console.endProgress() }
        let planting = try AreaPlanting(
            area: areaFeatures, named: area, exclusions: zones, mix: mix, layout: plantingLayout, count: count,
            seed: seed)
        let (frame, plan) = (planting.frame, planting.plan)
        let alignment = try sessionOrigin().map { SessionAlignment(origin: $0.0, heading: $0.1, in: frame) }
        try write(GeoJSONWriter.write(plan, frame: frame, session: alignment), to: output)
        if let svg { try draw(plan, to: svg) }
        let report = summary(plan, mix: mix)
        if output == nil || output == "-" { Console.error(report) } else { try Console.write(report + "\n") }
    }

    private var plantingLayout: PlantingLayout {
        switch layout {
        case .poisson: .poisson
        case .hex: .triangular(spacing: nil, orientation: orientation)
        case .reforestar: .reforestar(treesPerTap: treesPerTap)
        }
    }

    /// The polygons and points of a GeoJSON file; problems are printed and exit 1 (2 if unreadable).
    static func features(_ path: String) throws -> GeoFeatures {
        let input = try SpecInput.open(path)
        do { return try GeoJSONReader.read(input.data, file: path) } catch {
            for diagnostic in error.diagnostics where diagnostic.severity == .error {
                Console.error(diagnostic.description)
            }
            if error.diagnostics.isEmpty { Console.error("error: \(path): \(error.message)") }
            throw CLIExit.specErrors.exitCode
        }
    }

    /// Writes the plan's drawing as SVG, or PNG for a .png name.
    private func draw(_ plan: PlantingPlan, to path: String) throws {
        let drawing = PlanDrawing(title: "Planting plan: \((area as NSString).lastPathComponent)").drawing(plan)
        guard WidgetFormat(path: path) == .png else {
            return try reporting.save(Data(SVGWriter().write(drawing).utf8), to: path, what: "SVG plan")
        }
        do {
            let png = try PNGWriter(fonts: FontLibrary.standard(directory: nil), background: .white).write(drawing)
            try reporting.save(Data(png), to: path, what: "PNG plan")
        } catch let error as GraphicsError {
            throw CommandFailure.usage("\(error)")
        }
    }

    private func write(_ text: String, to path: String?) throws {
        guard let path, path != "-" else { return try Console.write(text) }
        try reporting.save(Data(text.utf8), to: path, what: "GeoJSON plan")
    }

    /// The lines printed after planting.
    private func summary(_ plan: PlantingPlan, mix: SpeciesMix) -> String {
        let figures = plan.summary
        var lines = [
            String(
                format: "%d trees on %.2f ha (%.0f m²): %.0f per ha", figures.trees, figures.squareMetres / 10_000,
                figures.squareMetres, figures.perHectare)
        ]
        if let distance = figures.minimumDistance {
            lines.append(
                String(
                    format: "closest pair %.2f m apart (rule: at least %.2f m)", distance,
                    plan.mix.smallestSpacing / plan.spacingFactor))
        }
        for (index, entry) in plan.mix.entries.enumerated() {
            lines.append(
                String(
                    format: "  %@: %d trees (%.0f%%), %.2f m apart", entry.name, figures.perSpecies[index],
                    entry.share * 100, entry.spacing))
        }
        if plan.spacingFactor > 1 {
            lines.append(
                String(
                    format: "spacing widened ×%.2f to spread %d trees over the whole area", plan.spacingFactor,
                    count ?? 0))
        }
        if figures.shortfall > 0 {
            lines.append("only \(figures.trees) of the \(count ?? 0) requested trees fit: \(figures.shortfall) did not")
        }
        if !plan.site.existing.isEmpty { lines.append("kept clear of \(plan.site.existing.count) standing trees") }
        return lines.joined(separator: "\n")
    }
}
