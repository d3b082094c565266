import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// M4 aggregation (Jugel et al., VLDB 2014): of points sorted by x, keep in each column of a given
/// width only the first, the last, the lowest and the highest. A polyline through what is kept
/// rasterises to the same pixels as one through every point when the columns are no wider than
/// a pixel, so a line of a million rows costs what one of a few thousand does.
enum M4Reduction {
    /// The indices of `points` to keep, in order; all of them when they are not sorted by x or
    /// already fewer than four per column.
    static func kept(_ points: [Point], columnWidth: Double, span: Double) -> [Int] {
        let columns = max(1, span / columnWidth)
        guard Double(points.count) > 4 * columns, isSortedByX(points) else { return Array(points.indices) }
        var kept: [Int] = []
        kept.reserveCapacity(Int(saturating: 4 * columns) + 4)
        var start = 0
        while start < points.count {
            let column = (points[start].x / columnWidth).rounded(.down)
            var end = start + 1
            var lowest = start
            var highest = start
            while end < points.count, (points[end].x / columnWidth).rounded(.down) == column {
                if points[end].y < points[lowest].y { lowest = end }
                if points[end].y > points[highest].y { highest = end }
                end += 1
            }
            for index in Set([start, lowest, highest, end - 1]).sorted() { kept.append(index) }
            start = end
        }
        return kept
    }

    private static func isSortedByX(_ points: [Point]) -> Bool {
        zip(points, points.dropFirst()).allSatisfy { $0.x <= $1.x }
    }
}

/// Point binning, the scatter counterpart of ``M4Reduction``: of points that fall in the same small
/// square cell and share a colour, only the last drawn is kept (it is the one on top), so a dense
/// scatter costs at most one symbol per cell and colour while sparse points are all kept.
enum PointBinning {
    /// The side of a cell: half a point (a pixel at 2×), a tenth of a default 5-point symbol.
    static let cellSize = 0.5

    /// The indices of the points to draw, in drawing order. `colors[i]` tells the colour of point `i`.
    static func kept(_ points: [Point], colors: [DrawingColor], cellSize: Double = PointBinning.cellSize) -> [Int] {
        struct Cell: Hashable {
            let x: Int, y: Int
            let color: DrawingColor
        }
        var last: [Cell: Int] = [:]
        for (index, point) in points.enumerated() {
            let cell = Cell(
                x: Int(saturating: (point.x / cellSize).rounded(.down)),
                y: Int(saturating: (point.y / cellSize).rounded(.down)), color: colors[index])
            last[cell] = index
        }
        guard last.count < points.count else { return Array(points.indices) }
        return last.values.sorted()
    }
}
