public import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation

/// A plan drawn as a map: the areas and their holes, exclusion zones, standing trees, the planned trees
/// as circles of their spacing's diameter (so circles never overlap when the rules hold) coloured by
/// species, a scale bar, a north arrow and a legend with the plan's figures. North is up.
public struct PlanDrawing: Sendable {
    /// The plan's longer side in points.
    public var mapSize: Double
    /// A title above the map.
    public var title: String

    /// Creates a plan drawer.
    public init(mapSize: Double = 720, title: String = "Planting plan") {
        self.mapSize = mapSize
        self.title = title
    }

    /// The colours of the species, in mix order (they repeat after twelve).
    static let palette: [DrawingColor] = [
        (27, 120, 55), (166, 86, 40), (55, 126, 184), (228, 26, 28), (152, 78, 163), (255, 127, 0),
        (77, 175, 74), (247, 129, 191), (102, 102, 102), (0, 139, 139), (184, 134, 11), (30, 30, 120),
    ].map { DrawingColor(red: $0.0, green: $0.1, blue: $0.2) }

    private static let standingColor = DrawingColor(red: 70, green: 70, blue: 70)
    private static let margin = 24.0, titleHeight = 30.0, lineHeight = 18.0

    /// The drawing of `plan`.
    public func drawing(_ plan: PlantingPlan) -> Drawing {
        let bounds = plan.site.bounds
        let size = bounds.maximum - bounds.minimum
        let scale = size.x > 0 || size.y > 0 ? mapSize / max(size.x, size.y) : 1
        let mapOrigin = Point(Self.margin, Self.margin + Self.titleHeight)
        let place = { (point: SIMD2<Double>) in
            Point(
                mapOrigin.x + (point.x - bounds.minimum.x) * scale, mapOrigin.y + (bounds.maximum.y - point.y) * scale)
        }
        let mapHeight = size.y * scale
        var elements: [Element] = [
            .text(TextRun(title, at: Point(Self.margin, Self.margin + 14), face: .bold, size: 16))
        ]
        elements += ground(plan.site, place: place, scale: scale)
        elements += trees(plan, place: place, scale: scale)
        let footer = mapOrigin.y + mapHeight + 16
        elements += scaleBar(scale: scale, at: Point(Self.margin, footer + 10))
        elements += northArrow(at: Point(Self.margin + max(size.x * scale, 200) - 10, footer + 4))
        // The summary finds the closest pair over every tree: computed once, for the legend and the title.
        let summary = plan.summary
        elements += legend(plan, summary, at: Point(Self.margin, footer + 48))
        let height = footer + 48 + Double(legendLines(plan)) * Self.lineHeight + Self.margin
        let width = max(size.x * scale, 420) + 2 * Self.margin
        return Drawing(
            extent: Size(width: width, height: height), title: title,
            summary: "\(summary.trees) trees on \(Self.hectares(summary.squareMetres)) ha", elements: elements)
    }

    /// Areas, holes, exclusion zones and standing trees.
    private func ground(_ site: PlantingSite, place: (SIMD2<Double>) -> Point, scale: Double) -> [Element] {
        func ring(_ points: [SIMD2<Double>]) -> Path {
            var path = Path.polyline(points.map(place))
            path.close()
            return path
        }
        let edge = DrawingColor(red: 40, green: 90, blue: 40)
        var elements: [Element] = []
        for area in site.areas {
            elements.append(
                .shape(
                    Shape(
                        path: ring(area.outer), fill: DrawingColor(red: 236, green: 244, blue: 228),
                        stroke: Stroke(color: edge, width: 1.5))))
            for hole in area.holes {
                elements.append(
                    .shape(Shape(path: ring(hole), fill: .white, stroke: Stroke(color: edge, width: 1, dash: [4, 3]))))
            }
        }
        for zone in site.exclusions {
            var path = ring(zone.outer)
            // Holes wind against the outline, so the nonzero fill leaves them empty.
            for hole in zone.holes {
                path.append(ring(Area.isClockwise(hole) == Area.isClockwise(zone.outer) ? hole.reversed() : hole))
            }
            elements.append(
                .shape(
                    Shape(
                        path: path, fill: DrawingColor(red: 200, green: 200, blue: 200, opacity: 0.6),
                        stroke: Stroke(color: DrawingColor(red: 160, green: 40, blue: 40), width: 1, dash: [3, 2]))))
        }
        if !site.existing.isEmpty {
            var dots = Path()
            var clearances = Path()
            for tree in site.existing {
                dots.append(.circle(center: place(tree.position), radius: 2.5))
                clearances.append(.circle(center: place(tree.position), radius: tree.spacing * scale))
            }
            elements.append(
                .shape(Shape(path: clearances, stroke: Stroke(color: Self.standingColor, width: 0.8, dash: [2, 2]))))
            elements.append(.shape(Shape(path: dots, fill: Self.standingColor)))
        }
        return elements
    }

    /// One path of circles per species.
    private func trees(_ plan: PlantingPlan, place: (SIMD2<Double>) -> Point, scale: Double) -> [Element] {
        plan.mix.entries.indices.map { species in
            let radius = max(plan.mix.entries[species].spacing * scale / 2, 0.8)
            var path = Path()
            for tree in plan.trees where tree.species == species {
                path.append(.circle(center: place(tree.position), radius: radius))
            }
            let color = Self.palette[species % Self.palette.count]
            return .shape(
                Shape(path: path, fill: color.fading(0.55), stroke: radius > 2 ? Stroke(color: color, width: 0.6) : nil)
            )
        }
    }

    /// A bar about a quarter of the map wide, in a round number of metres.
    private func scaleBar(scale: Double, at origin: Point) -> [Element] {
        let target = mapSize / 4 / scale
        let magnitude = pow(10, floor(log10(max(target, 1e-9))))
        let metres = [1.0, 2, 5, 10].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
        let length = metres * scale
        var path = Path.polyline([
            Point(origin.x, origin.y - 4), Point(origin.x, origin.y), Point(origin.x + length, origin.y),
            Point(origin.x + length, origin.y - 4),
        ])
        path.move(to: Point(origin.x + length / 2, origin.y))
        path.line(to: Point(origin.x + length / 2, origin.y - 3))
        let label = metres >= 1000 ? "\(Self.format(metres / 1000)) km" : "\(Self.format(metres)) m"
        return [
            .shape(Shape(path: path, stroke: Stroke(color: .black, width: 1.5))),
            .text(TextRun(label, at: Point(origin.x + length + 6, origin.y + 4), size: 11)),
        ]
    }

    private func northArrow(at origin: Point) -> [Element] {
        var arrow = Path()
        arrow.move(to: Point(origin.x, origin.y - 4))
        arrow.line(to: Point(origin.x + 5, origin.y + 10))
        arrow.line(to: Point(origin.x, origin.y + 6))
        arrow.line(to: Point(origin.x - 5, origin.y + 10))
        arrow.close()
        return [
            .shape(Shape(path: arrow, fill: .black)),
            .text(TextRun("N", at: Point(origin.x - 4, origin.y + 24), face: .bold, size: 11)),
        ]
    }

    /// The figures, then one line per species.
    private func legend(_ plan: PlantingPlan, _ summary: PlanSummary, at origin: Point) -> [Element] {
        var figures =
            "\(summary.trees) trees · \(Self.hectares(summary.squareMetres)) ha · \(Self.format(summary.perHectare.rounded())) per ha"
        if let distance = summary.minimumDistance { figures += " · closest pair \(String(format: "%.2f", distance)) m" }
        if summary.shortfall > 0 { figures += " · \(summary.shortfall) did not fit" }
        var elements: [Element] = [.text(TextRun(figures, at: origin, size: 12))]
        for (index, entry) in plan.mix.entries.enumerated() {
            let y = origin.y + Double(index + 1) * Self.lineHeight
            let color = Self.palette[index % Self.palette.count]
            elements.append(
                .shape(
                    Shape(
                        path: .circle(center: Point(origin.x + 5, y - 4), radius: 5), fill: color.fading(0.55),
                        stroke: Stroke(color: color, width: 0.6))))
            let line =
                "\(entry.name) — \(summary.perSpecies[index]) trees, \(String(format: "%.1f", entry.spacing)) m apart"
            elements.append(.text(TextRun(line, at: Point(origin.x + 16, y), size: 12)))
        }
        var y = origin.y + Double(plan.mix.entries.count + 1) * Self.lineHeight
        if !plan.site.existing.isEmpty {
            elements.append(
                .shape(Shape(path: .circle(center: Point(origin.x + 5, y - 4), radius: 2.5), fill: Self.standingColor)))
            elements.append(.text(TextRun("standing tree (dashed: kept clear)", at: Point(origin.x + 16, y), size: 12)))
            y += Self.lineHeight
        }
        if !plan.site.exclusions.isEmpty {
            elements.append(
                .shape(
                    Shape(
                        path: .rect(Rect(x: origin.x, y: y - 9, width: 10, height: 10)),
                        fill: DrawingColor(red: 200, green: 200, blue: 200),
                        stroke: Stroke(color: DrawingColor(red: 160, green: 40, blue: 40), width: 1))))
            elements.append(.text(TextRun("exclusion zone", at: Point(origin.x + 16, y), size: 12)))
        }
        return elements
    }

    /// Lines of the legend: the figures, the species, and standing trees and zones when there are some.
    private func legendLines(_ plan: PlantingPlan) -> Int {
        1 + plan.mix.entries.count + (plan.site.existing.isEmpty ? 0 : 1) + (plan.site.exclusions.isEmpty ? 0 : 1)
    }

    static func hectares(_ squareMetres: Double) -> String { String(format: "%.2f", squareMetres / 10_000) }

    /// A number without a trailing ".0".
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.1f", value)
    }
}
