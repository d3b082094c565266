import ARVisSupport
import Foundation

/// Turns stroked polylines into closed outlines that ``CoverageRaster`` fills: one quadrilateral per
/// segment plus a join or cap piece at each vertex, all turning the same way so overlaps stay solid.
enum Stroker {
    static func outlines(of polylines: [Polyline], width: Double, dash: [Double], round: Bool) -> [Polyline] {
        let half = max(width, 0.01) / 2
        var pieces: [Polyline] = []
        for polyline in dashed(polylines, dash) {
            var points = polyline.points
            if polyline.isClosed, let first = points.first { points.append(first) }
            guard points.count > 1 else { continue }
            for index in 0..<(points.count - 1) {
                if let quad = segment(points[index], points[index + 1], half) { pieces.append(quad) }
            }
            let joints = polyline.isClosed ? points : (round ? points : Array(points.dropFirst().dropLast()))
            for point in joints { pieces.append(disc(point, half)) }
        }
        return pieces
    }

    private static func segment(_ a: Point, _ b: Point, _ half: Double) -> Polyline? {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 1e-9 else { return nil }
        let nx = -dy / length * half
        let ny = dx / length * half
        return oriented([
            Point(a.x + nx, a.y + ny), Point(b.x + nx, b.y + ny), Point(b.x - nx, b.y - ny), Point(a.x - nx, a.y - ny),
        ])
    }

    /// A small polygonal disc that rounds a join or cap.
    private static func disc(_ center: Point, _ radius: Double) -> Polyline {
        let count = max(8, min(32, Int(saturating: radius * 4)))
        let points = (0..<count).map { step -> Point in
            let angle = Double(step) / Double(count) * 2 * .pi
            return Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
        }
        return oriented(points)
    }

    /// The points in the one winding direction every piece shares.
    private static func oriented(_ points: [Point]) -> Polyline {
        var area = 0.0
        for index in 0..<points.count {
            let a = points[index]
            let b = points[(index + 1) % points.count]
            area += a.x * b.y - b.x * a.y
        }
        return Polyline(points: area < 0 ? points.reversed() : points, isClosed: true)
    }

    /// Splits polylines into the "on" pieces of a dash pattern.
    private static func dashed(_ polylines: [Polyline], _ dash: [Double]) -> [Polyline] {
        guard !dash.isEmpty, dash.allSatisfy({ $0 >= 0 }), dash.reduce(0, +) > 0 else { return polylines }
        let pattern = dash.count % 2 == 0 ? dash : dash + dash
        var result: [Polyline] = []
        for polyline in polylines {
            var points = polyline.points
            guard let first = points.first else { continue }
            if polyline.isClosed { points.append(first) }
            var index = 0
            var remaining = pattern[0]
            var on = true
            var current: [Point] = [first]
            for step in 0..<(points.count - 1) {
                var a = points[step]
                let b = points[step + 1]
                var length = hypot(b.x - a.x, b.y - a.y)
                while length > remaining {
                    let t = remaining / length
                    let cut = Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
                    if on {
                        current.append(cut)
                        result.append(Polyline(points: current, isClosed: false))
                        current = []
                    } else {
                        current = [cut]
                    }
                    on.toggle()
                    length -= remaining
                    a = cut
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                    if remaining <= 0 && pattern.allSatisfy({ $0 <= 0 }) { break }
                }
                remaining -= length
                if on { current.append(b) }
            }
            if on && current.count > 1 { result.append(Polyline(points: current, isClosed: false)) }
        }
        return result
    }
}
