import ARVisGraphics
import Foundation

/// SF Symbols drawn as vector shapes of our own (Apple's artwork cannot be shipped) that read the
/// same: filled or outlined, circled or squared, in SF Symbols' multicolour tints where iARVis asks
/// for `.multicolor` and the symbol has one, else in the text colour.
///
/// A name is its base (the longest known prefix: `cloud.heavyrain`, `speaker.wave.2`) followed by
/// modifiers: `fill`, and `circle` or `square` for an enclosure. ``names`` lists the bases.
enum SymbolArt {
    static let yellow = DrawingColor(red: 255, green: 204, blue: 0)
    static let red = DrawingColor(red: 255, green: 59, blue: 48)
    static let blue = DrawingColor(red: 0, green: 122, blue: 255)
    static let orange = DrawingColor(red: 255, green: 149, blue: 0)
    static let green = DrawingColor(red: 52, green: 199, blue: 89)
    static let cloudWhite = DrawingColor.white

    /// Draws into a unit square (0…1 both ways, y down) mapped onto a frame.
    struct Pen {
        let box: Rect
        let isFilled: Bool
        let ink: DrawingColor
        /// The regular weight's line width, in units.
        var lineWidth = 0.085

        func point(_ x: Double, _ y: Double) -> Point { Point(box.minX + x * box.width, box.minY + y * box.height) }

        /// A unit length in points.
        func length(_ units: Double) -> Double { units * box.width }

        func circle(_ x: Double, _ y: Double, _ radius: Double) -> Path {
            .circle(center: point(x, y), radius: length(radius))
        }

        func polygon(_ points: [(Double, Double)]) -> Path {
            var path = Path.polyline(points.map { point($0.0, $0.1) })
            path.close()
            return path
        }

        /// A closed outline of cubic curves from `start`, each given as its two controls and its end.
        func closedCurve(
            from start: (Double, Double),
            _ curves: [((Double, Double), (Double, Double), (Double, Double))]
        ) -> Path {
            var path = Path()
            path.move(to: point(start.0, start.1))
            for (first, second, end) in curves {
                path.cubic(point(first.0, first.1), point(second.0, second.1), to: point(end.0, end.1))
            }
            path.close()
            return path
        }

        /// `path` filled, or outlined when the symbol is not a `.fill` one.
        func solid(_ path: Path, _ color: DrawingColor? = nil, filled: Bool? = nil) -> Element {
            (filled ?? isFilled)
                ? .shape(Shape(path: path, fill: color ?? ink))
                : .shape(
                    Shape(path: path, stroke: Stroke(color: color ?? ink, width: length(lineWidth), isRound: true)))
        }

        /// Round-capped strokes through each list of points.
        func lines(_ strokes: [[(Double, Double)]], _ color: DrawingColor? = nil, width: Double? = nil) -> Element {
            var path = Path()
            for stroke in strokes { path.append(.polyline(stroke.map { point($0.0, $0.1) })) }
            return .shape(
                Shape(path: path, stroke: Stroke(color: color ?? ink, width: length(width ?? lineWidth), isRound: true))
            )
        }

        /// A pen drawing into the part of this one's square at `x`, `y`, `size` units.
        func inset(_ x: Double, _ y: Double, _ size: Double, ink: DrawingColor? = nil, filled: Bool? = nil) -> Pen {
            Pen(
                box: Rect(
                    x: box.minX + x * box.width, y: box.minY + y * box.height, width: size * box.width,
                    height: size * box.height),
                isFilled: filled ?? isFilled, ink: ink ?? self.ink, lineWidth: lineWidth / size)
        }
    }

    typealias Art = @Sendable (Pen) -> [Element]

    /// The bases drawn, and how.
    static let table: [String: Art] = [
        "sun.max": { sun($0, rays: 0.45) }, "sun.min": { sun($0, rays: 0.38) },
        "moon": { [$0.solid(crescent($0), $0.isFilled ? yellow : nil)] },
        "cloud": { cloud($0) }, "cloud.rain": { cloud($0, below: rain(short: true)) },
        "cloud.heavyrain": { cloud($0, below: rain(short: false)) }, "cloud.drizzle": { cloud($0, below: drizzle) },
        "cloud.snow": { cloud($0, below: snowBelow) }, "cloud.bolt": { cloud($0, below: boltBelow) },
        "cloud.sun": { cloudWithSun($0) }, "cloud.fog": { cloud($0, below: fog) },
        "thermometer": { thermometer($0, withSun: false) }, "thermometer.sun": { thermometer($0, withSun: true) },
        "tornado": tornado, "wind": wind, "snowflake": snowflake,
        "drop": { [$0.solid(drop($0), $0.isFilled ? blue : nil)] },
        "bolt": { [$0.solid(bolt($0), $0.isFilled ? yellow : nil)] },
        "flame": { [$0.solid(drop($0), $0.isFilled ? orange : nil)] },
        "heart": { [$0.solid(heart($0), $0.isFilled ? red : nil)] },
        "star": { [$0.solid(star($0), $0.isFilled ? yellow : nil)] },
        "info": info, "exclamationmark": exclamation, "exclamationmark.triangle": warning, "questionmark": question,
        "checkmark": { [$0.lines([[(0.2, 0.52), (0.42, 0.74), (0.8, 0.28)]], width: 0.1)] },
        "xmark": { [$0.lines([[(0.25, 0.25), (0.75, 0.75)], [(0.75, 0.25), (0.25, 0.75)]], width: 0.1)] },
        "plus": { [$0.lines([[(0.5, 0.2), (0.5, 0.8)], [(0.2, 0.5), (0.8, 0.5)]], width: 0.1)] },
        "minus": { [$0.lines([[(0.2, 0.5), (0.8, 0.5)]], width: 0.1)] },
        "play": { [$0.solid($0.polygon([(0.3, 0.2), (0.8, 0.5), (0.3, 0.8)]))] },
        "pause": { pen in [0.28, 0.58].map { pen.solid(.rect(Rect(pen.point($0, 0.22), pen.point($0 + 0.14, 0.78)))) }
        },
        "stop": { [$0.solid(.roundedRect(Rect($0.point(0.24, 0.24), $0.point(0.76, 0.76)), radius: $0.length(0.06)))] },
        "arrow.right": { arrow($0, angle: 0) }, "arrow.down": { arrow($0, angle: .pi / 2) },
        "arrow.left": { arrow($0, angle: .pi) }, "arrow.up": { arrow($0, angle: -.pi / 2) },
        "chevron.right": { chevron($0, angle: 0) }, "chevron.down": { chevron($0, angle: .pi / 2) },
        "chevron.left": { chevron($0, angle: .pi) }, "chevron.up": { chevron($0, angle: -.pi / 2) },
        "location": { [$0.solid($0.polygon([(0.82, 0.18), (0.52, 0.84), (0.46, 0.54), (0.16, 0.48)]))] },
        "mappin": mappin, "house": house, "person": person, "clock": clock, "calendar": calendar, "globe": globe,
        "magnifyingglass": {
            [
                $0.solid($0.circle(0.43, 0.43, 0.25), filled: false),
                $0.lines([[(0.62, 0.62), (0.84, 0.84)]], width: 0.12),
            ]
        },
        "music.note": musicNote, "speaker.wave.2": speaker, "photo": photo, "camera": camera, "envelope": envelope,
        "circle": { [$0.solid($0.circle(0.5, 0.5, 0.4))] },
        "square": {
            [$0.solid(.roundedRect(Rect($0.point(0.12, 0.12), $0.point(0.88, 0.88)), radius: $0.length(0.12)))]
        },
        "triangle": { [$0.solid($0.polygon([(0.5, 0.14), (0.9, 0.84), (0.1, 0.84)]))] },
    ]

    /// Bases drawn as a solid shape with details cut out of it.
    private static let framed: Set<String> = ["clock", "globe", "photo", "camera", "envelope", "calendar", "house"]

    /// The symbol bases drawn as shapes, sorted: the documented table.
    static var names: [String] { table.keys.sorted() }

    /// A parsed name: its base and modifiers.
    struct Name {
        var base: String
        var isFilled = false
        var enclosure: String?

        init?(_ name: String) {
            let parts = name.split(separator: ".").map(String.init)
            guard
                let length = (1...max(1, parts.count)).reversed().first(where: {
                    parts.count >= $0 && SymbolArt.table[parts.prefix($0).joined(separator: ".")] != nil
                })
            else { return nil }
            base = parts.prefix(length).joined(separator: ".")
            for modifier in parts.dropFirst(length) {
                if modifier == "fill" { isFilled = true }
                if modifier == "circle" || modifier == "square" { enclosure = modifier }
            }
        }
    }

    /// The symbol `name` drawn in `rect` (a square), or `nil` when its base is not in the table.
    static func draw(_ name: String, in rect: Rect, ink: DrawingColor) -> [Element]? {
        guard let parsed = Name(name), let art = table[parsed.base] else { return nil }
        let pen = Pen(box: rect, isFilled: parsed.isFilled, ink: ink)
        guard let enclosure = parsed.enclosure else { return art(pen) }
        let outline: Path =
            enclosure == "circle"
            ? pen.circle(0.5, 0.5, 0.44)
            : .roundedRect(Rect(pen.point(0.06, 0.06), pen.point(0.94, 0.94)), radius: pen.length(0.2))
        // A filled enclosure is a solid disc with the symbol in white; else a ring around the outlined
        // symbol. Symbols whose detail is cut out of a solid shape are outlined inside a disc.
        let inner = pen.inset(
            0.22, 0.22, 0.56, ink: parsed.isFilled ? .white : ink,
            filled: parsed.isFilled && !framed.contains(parsed.base))
        return [pen.solid(outline)] + art(inner)
    }

    // MARK: Weather

    private static func sun(_ pen: Pen, rays reach: Double) -> [Element] {
        let color = pen.isFilled ? yellow : pen.ink
        let rays = (0..<8).map { index -> [(Double, Double)] in
            let angle = Double(index) * .pi / 4
            return [
                (0.5 + cos(angle) * 0.31, 0.5 + sin(angle) * 0.31),
                (0.5 + cos(angle) * reach, 0.5 + sin(angle) * reach),
            ]
        }
        return [pen.solid(pen.circle(0.5, 0.5, 0.19), color), pen.lines(rays, color, width: 0.075)]
    }

    /// A crescent: a disc less an offset disc, as one outline of two arcs.
    private static func crescent(_ pen: Pen) -> Path {
        let (outer, outerRadius) = ((0.5, 0.5), 0.36)
        let (inner, innerRadius) = ((0.66, 0.36), 0.29)
        let dx = inner.0 - outer.0
        let dy = inner.1 - outer.1
        let distance = (dx * dx + dy * dy).squareRoot()
        let toward = atan2(dy, dx)
        let alpha = acos(
            (outerRadius * outerRadius + distance * distance - innerRadius * innerRadius) / (2 * outerRadius * distance)
        )
        let beta = acos(
            (innerRadius * innerRadius + distance * distance - outerRadius * outerRadius) / (2 * innerRadius * distance)
        )
        var points: [(Double, Double)] = []
        for step in 0...40 {
            let angle = toward + alpha + (2 * .pi - 2 * alpha) * Double(step) / 40
            points.append((outer.0 + cos(angle) * outerRadius, outer.1 + sin(angle) * outerRadius))
        }
        // The inner disc's arc inside the outer one, from where the outer arc ended back to its start.
        var arc = (0...24).map { step -> (Double, Double) in
            let angle = toward + .pi - beta + 2 * beta * Double(step) / 24
            return (inner.0 + cos(angle) * innerRadius, inner.1 + sin(angle) * innerRadius)
        }
        let last = points[points.count - 1]
        func gap(_ a: (Double, Double)) -> Double { (a.0 - last.0) * (a.0 - last.0) + (a.1 - last.1) * (a.1 - last.1) }
        if gap(arc[0]) > gap(arc[arc.count - 1]) { arc.reverse() }
        return pen.polygon(points + arc)
    }

    /// The outline of three overlapping discs on a flat base, traced around a point inside them.
    private static func cloudOutline(_ pen: Pen) -> Path {
        let discs = [(0.28, 0.6, 0.16), (0.5, 0.45, 0.22), (0.72, 0.58, 0.17)]
        func inside(_ x: Double, _ y: Double) -> Bool {
            if x >= 0.28 && x <= 0.72 && y >= 0.5 && y <= 0.76 { return true }
            return discs.contains { (x - $0.0) * (x - $0.0) + (y - $0.1) * (y - $0.1) <= $0.2 * $0.2 }
        }
        let center = (0.5, 0.6)
        let points = (0..<96).map { index -> (Double, Double) in
            let angle = Double(index) * 2 * .pi / 96
            var reach = 0.6
            while reach > 0, !inside(center.0 + cos(angle) * reach, center.1 + sin(angle) * reach) { reach -= 0.004 }
            return (center.0 + cos(angle) * reach, center.1 + sin(angle) * reach)
        }
        return pen.polygon(points)
    }

    /// A cloud, raised and smaller when something falls from it; white in multicolour.
    private static func cloud(_ pen: Pen, below: Art? = nil) -> [Element] {
        let color = pen.isFilled ? cloudWhite : pen.ink
        guard let below else { return [pen.solid(cloudOutline(pen), color)] }
        let upper = pen.inset(0.05, -0.12, 0.9)
        return [upper.solid(cloudOutline(upper), color)] + below(pen)
    }

    private static func rain(short: Bool) -> Art {
        { pen in
            let color = pen.isFilled ? blue : pen.ink
            let strokes = [0.32, 0.5, 0.68].map { x -> [(Double, Double)] in
                short ? [(x + 0.03, 0.72), (x - 0.03, 0.84)] : [(x + 0.05, 0.68), (x - 0.05, 0.92)]
            }
            return [pen.lines(strokes, color, width: 0.07)]
        }
    }

    private static let drizzle: Art = { pen in
        let color = pen.isFilled ? blue : pen.ink
        return [(0.32, 0.76), (0.5, 0.84), (0.68, 0.76)].map {
            pen.solid(pen.circle($0.0, $0.1, 0.04), color, filled: true)
        }
    }

    private static let snowBelow: Art = { pen in
        [(0.32, 0.8), (0.5, 0.88), (0.68, 0.8)].map {
            pen.solid(pen.circle($0.0, $0.1, 0.045), pen.isFilled ? blue : pen.ink, filled: true)
        }
    }

    private static let boltBelow: Art = { pen in
        let small = pen.inset(0.3, 0.55, 0.42, ink: pen.isFilled ? yellow : pen.ink, filled: true)
        return [small.solid(bolt(small))]
    }

    private static let fog: Art = { pen in
        [pen.lines([[(0.22, 0.78), (0.78, 0.78)], [(0.3, 0.9), (0.7, 0.9)]], width: 0.07)]
    }

    private static func cloudWithSun(_ pen: Pen) -> [Element] {
        let sunPen = pen.inset(0.38, 0.02, 0.6)
        let cloudPen = pen.inset(0.0, 0.22, 0.8)
        return sun(sunPen, rays: 0.45) + cloud(cloudPen)
    }

    private static func thermometer(_ pen: Pen, withSun: Bool) -> [Element] {
        let x = withSun ? 0.36 : 0.5
        let tube = RoundedBar(x: x, top: 0.1, bottom: 0.7, width: 0.2)
        // Filled: a grey glass tube; outlined: the tube's outline. The mercury is red either way.
        let glass: Element =
            pen.isFilled
            ? .shape(Shape(path: tube.path(pen), fill: DrawingColor(red: 142, green: 142, blue: 147, opacity: 0.45)))
            : .shape(Shape(path: tube.path(pen), stroke: Stroke(color: pen.ink, width: pen.length(0.06))))
        var elements: [Element] = [
            glass,
            pen.solid(pen.circle(x, 0.76, 0.15), red, filled: true),
            .shape(Shape(path: .rect(Rect(pen.point(x - 0.045, 0.38), pen.point(x + 0.045, 0.76))), fill: red)),
        ]
        if withSun { elements += sun(pen.inset(0.56, 0.04, 0.4), rays: 0.45) }
        return elements
    }

    /// A vertical bar with round ends.
    private struct RoundedBar {
        let x, top, bottom, width: Double
        func path(_ pen: Pen) -> Path {
            .roundedRect(
                Rect(pen.point(x - width / 2, top), pen.point(x + width / 2, bottom)), radius: pen.length(width / 2))
        }
    }

    private static let tornado: Art = { pen in
        let rows = [(0.12, 0.76), (0.26, 0.62), (0.4, 0.48), (0.54, 0.36), (0.68, 0.26), (0.82, 0.18)]
        return [
            pen.lines(
                rows.enumerated().map { index, row in
                    let shift = Double(index % 2) * 0.04
                    return [(0.5 - row.1 / 2 + shift, row.0), (0.5 + row.1 / 2 + shift, row.0)]
                }, width: 0.075)
        ]
    }

    private static let wind: Art = { pen in
        var path = Path()
        for (y, end) in [(0.34, 0.72), (0.52, 0.86), (0.7, 0.62)] {
            path.move(to: pen.point(0.12, y))
            path.line(to: pen.point(end, y))
            path.quad(control: pen.point(end + 0.12, y), to: pen.point(end + 0.1, y - 0.1))
        }
        return [.shape(Shape(path: path, stroke: Stroke(color: pen.ink, width: pen.length(0.075), isRound: true)))]
    }

    private static let snowflake: Art = { pen in
        var strokes: [[(Double, Double)]] = []
        for index in 0..<6 {
            let angle = Double(index) * .pi / 3 - .pi / 2
            let end = (0.5 + cos(angle) * 0.4, 0.5 + sin(angle) * 0.4)
            strokes.append([(0.5, 0.5), end])
            let fork = (0.5 + cos(angle) * 0.27, 0.5 + sin(angle) * 0.27)
            for side in [-1.0, 1.0] {
                let branch = angle + side * .pi / 4
                strokes.append([fork, (fork.0 + cos(branch) * 0.12, fork.1 + sin(branch) * 0.12)])
            }
        }
        return [pen.lines(strokes, pen.isFilled ? blue : nil, width: 0.06)]
    }

    // MARK: Shapes

    private static func drop(_ pen: Pen) -> Path {
        pen.closedCurve(
            from: (0.5, 0.1),
            [
                ((0.62, 0.3), (0.8, 0.45), (0.8, 0.62)), ((0.8, 0.8), (0.66, 0.9), (0.5, 0.9)),
                ((0.34, 0.9), (0.2, 0.8), (0.2, 0.62)), ((0.2, 0.45), (0.38, 0.3), (0.5, 0.1)),
            ])
    }

    private static func bolt(_ pen: Pen) -> Path {
        pen.polygon([(0.58, 0.06), (0.2, 0.56), (0.46, 0.56), (0.38, 0.94), (0.8, 0.42), (0.54, 0.42), (0.64, 0.06)])
    }

    private static func heart(_ pen: Pen) -> Path {
        pen.closedCurve(
            from: (0.5, 0.86),
            [
                ((0.2, 0.64), (0.08, 0.48), (0.1, 0.34)), ((0.12, 0.16), (0.38, 0.1), (0.5, 0.28)),
                ((0.62, 0.1), (0.88, 0.16), (0.9, 0.34)), ((0.92, 0.48), (0.8, 0.64), (0.5, 0.86)),
            ])
    }

    private static func star(_ pen: Pen) -> Path {
        pen.polygon(
            (0..<10).map { index in
                let angle = Double(index) * .pi / 5 - .pi / 2
                let radius = index % 2 == 0 ? 0.45 : 0.19
                return (0.5 + cos(angle) * radius, 0.54 + sin(angle) * radius)
            })
    }

    private static let info: Art = { pen in
        [pen.solid(pen.circle(0.5, 0.2, 0.08), filled: true), pen.lines([[(0.5, 0.42), (0.5, 0.84)]], width: 0.13)]
    }

    private static let exclamation: Art = { pen in
        [pen.lines([[(0.5, 0.14), (0.5, 0.6)]], width: 0.13), pen.solid(pen.circle(0.5, 0.82, 0.08), filled: true)]
    }

    private static let warning: Art = { pen in
        let triangle = pen.polygon([(0.5, 0.1), (0.94, 0.88), (0.06, 0.88)])
        let mark = pen.inset(0.3, 0.34, 0.4, ink: pen.isFilled ? .black : pen.ink)
        return [pen.solid(triangle, pen.isFilled ? yellow : nil)] + exclamation(mark)
    }

    private static let question: Art = { pen in
        var path = Path()
        path.move(to: pen.point(0.3, 0.32))
        path.cubic(pen.point(0.3, 0.08), pen.point(0.7, 0.08), to: pen.point(0.7, 0.3))
        path.cubic(pen.point(0.7, 0.46), pen.point(0.5, 0.46), to: pen.point(0.5, 0.62))
        return [
            .shape(Shape(path: path, stroke: Stroke(color: pen.ink, width: pen.length(0.12), isRound: true))),
            pen.solid(pen.circle(0.5, 0.84, 0.075), filled: true),
        ]
    }

    private static func arrow(_ pen: Pen, angle: Double) -> [Element] {
        let turn = { (x: Double, y: Double) -> (Double, Double) in
            (
                0.5 + (x - 0.5) * cos(angle) - (y - 0.5) * sin(angle),
                0.5 + (x - 0.5) * sin(angle) + (y - 0.5) * cos(angle)
            )
        }
        return [
            pen.lines(
                [[turn(0.14, 0.5), turn(0.84, 0.5)], [turn(0.56, 0.22), turn(0.84, 0.5), turn(0.56, 0.78)]], width: 0.1)
        ]
    }

    private static func chevron(_ pen: Pen, angle: Double) -> [Element] {
        let turn = { (x: Double, y: Double) -> (Double, Double) in
            (
                0.5 + (x - 0.5) * cos(angle) - (y - 0.5) * sin(angle),
                0.5 + (x - 0.5) * sin(angle) + (y - 0.5) * cos(angle)
            )
        }
        return [pen.lines([[turn(0.36, 0.16), turn(0.68, 0.5), turn(0.36, 0.84)]], width: 0.11)]
    }

    private static let mappin: Art = { pen in
        [
            pen.solid(pen.circle(0.5, 0.3, 0.2), pen.isFilled ? red : nil),
            pen.lines([[(0.5, 0.52), (0.5, 0.9)]], width: 0.09),
        ]
    }

    private static let house: Art = { pen in
        [
            pen.solid(
                pen.polygon([
                    (0.5, 0.12), (0.88, 0.46), (0.78, 0.46), (0.78, 0.88), (0.22, 0.88), (0.22, 0.46), (0.12, 0.46),
                ]))
        ]
            + (pen.isFilled
                ? [.shape(Shape(path: .rect(Rect(pen.point(0.42, 0.62), pen.point(0.58, 0.88))), fill: .white))] : [])
    }

    private static let person: Art = { pen in
        var body = Path()
        body.move(to: pen.point(0.16, 0.9))
        body.cubic(pen.point(0.16, 0.6), pen.point(0.84, 0.6), to: pen.point(0.84, 0.9))
        body.close()
        return [pen.solid(pen.circle(0.5, 0.3, 0.18)), pen.solid(body)]
    }

    private static let clock: Art = { pen in
        let hands = pen.lines([[(0.5, 0.24), (0.5, 0.5), (0.7, 0.62)]], pen.isFilled ? .white : nil, width: 0.08)
        return [pen.solid(pen.circle(0.5, 0.5, 0.42)), hands]
    }

    private static let calendar: Art = { pen in
        let frame = Rect(pen.point(0.1, 0.16), pen.point(0.9, 0.88))
        var elements: [Element] = [
            pen.solid(.roundedRect(frame, radius: pen.length(0.1)), filled: false),
            .shape(
                Shape(path: .rect(Rect(pen.point(0.1, 0.16), pen.point(0.9, 0.34))), fill: pen.isFilled ? red : pen.ink)
            ),
        ]
        for row in 0..<2 {
            for column in 0..<3 {
                elements.append(
                    pen.solid(pen.circle(0.3 + Double(column) * 0.2, 0.52 + Double(row) * 0.2, 0.045), filled: true))
            }
        }
        return elements
    }

    private static let globe: Art = { pen in
        var meridian = Path.ellipse(in: Rect(pen.point(0.32, 0.08), pen.point(0.68, 0.92)))
        meridian.append(.polyline([pen.point(0.08, 0.5), pen.point(0.92, 0.5)]))
        meridian.append(.polyline([pen.point(0.5, 0.08), pen.point(0.5, 0.92)]))
        let stroke = Stroke(color: pen.isFilled ? .white : pen.ink, width: pen.length(0.05))
        return [pen.solid(pen.circle(0.5, 0.5, 0.42)), .shape(Shape(path: meridian, stroke: stroke))]
    }

    private static let musicNote: Art = { pen in
        [
            pen.solid(.ellipse(in: Rect(pen.point(0.2, 0.66), pen.point(0.5, 0.88))), filled: true),
            pen.lines([[(0.48, 0.76), (0.48, 0.12), (0.78, 0.24)]], width: 0.08),
        ]
    }

    private static let speaker: Art = { pen in
        var waves = Path()
        for radius in [0.18, 0.32] {
            let points = stride(from: -0.8, through: 0.8, by: 0.1).map {
                pen.point(0.46 + cos($0) * radius, 0.5 + sin($0) * radius)
            }
            waves.append(.polyline(points))
        }
        return [
            pen.solid(
                pen.polygon([(0.08, 0.38), (0.24, 0.38), (0.44, 0.18), (0.44, 0.82), (0.24, 0.62), (0.08, 0.62)])),
            .shape(Shape(path: waves, stroke: Stroke(color: pen.ink, width: pen.length(0.07), isRound: true))),
        ]
    }

    private static let photo: Art = { pen in
        let frame = Rect(pen.point(0.08, 0.18), pen.point(0.92, 0.82))
        let inner = pen.isFilled ? DrawingColor.white : pen.ink
        return [
            pen.solid(.roundedRect(frame, radius: pen.length(0.08))),
            .shape(
                Shape(
                    path: pen.polygon([(0.16, 0.74), (0.4, 0.46), (0.56, 0.62), (0.66, 0.52), (0.84, 0.74)]),
                    fill: inner)),
            .shape(Shape(path: pen.circle(0.68, 0.34, 0.06), fill: inner)),
        ]
    }

    private static let camera: Art = { pen in
        let body = Rect(pen.point(0.08, 0.28), pen.point(0.92, 0.82))
        return [
            pen.solid(.roundedRect(body, radius: pen.length(0.1))),
            pen.solid(pen.polygon([(0.34, 0.28), (0.4, 0.18), (0.6, 0.18), (0.66, 0.28)])),
            pen.solid(pen.circle(0.5, 0.55, 0.16), pen.isFilled ? .white : nil, filled: false),
        ]
    }

    private static let envelope: Art = { pen in
        let frame = Rect(pen.point(0.08, 0.22), pen.point(0.92, 0.78))
        return [
            pen.solid(.roundedRect(frame, radius: pen.length(0.06))),
            pen.lines([[(0.1, 0.26), (0.5, 0.56), (0.9, 0.26)]], pen.isFilled ? .white : nil, width: 0.06),
        ]
    }
}

extension Rect {
    /// The rectangle between two corners.
    fileprivate init(_ topLeft: Point, _ bottomRight: Point) {
        self.init(x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
    }
}
