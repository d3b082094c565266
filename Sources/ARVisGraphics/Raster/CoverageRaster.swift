/// Anti-aliased coverage of a filled outline over a block of pixels, by signed-area accumulation.
///
/// Every edge adds the area it encloses to its left into a buffer; a running sum along each row then
/// gives each pixel's winding coverage, clamped to 0…1 (non-zero fill for outlines whose overlapping
/// parts turn the same way, which is how glyphs, stroke pieces and shapes here are built).
struct CoverageRaster {
    /// The block's left, top, width and height in canvas pixels.
    let left: Int, top: Int, width: Int, height: Int
    private var cells: [Float]
    private let stride: Int

    init(left: Int, top: Int, width: Int, height: Int) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.stride = width + 2
        self.cells = [Float](repeating: 0, count: stride * height)
    }

    /// Adds the edges of every polyline, closing each one.
    mutating func add(_ polylines: [Polyline]) {
        for polyline in polylines {
            let points = polyline.points
            guard points.count > 1 else { continue }
            for index in 0..<points.count {
                let next = index + 1 == points.count ? points[0] : points[index + 1]
                addEdge(points[index], next)
            }
        }
    }

    /// Adds one edge given in canvas pixel coordinates.
    mutating func addEdge(_ from: Point, _ to: Point) {
        let x0 = from.x - Double(left), y0 = from.y - Double(top)
        let x1 = to.x - Double(left), y1 = to.y - Double(top)
        guard y0 != y1, x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { return }
        let direction: Double = y1 > y0 ? 1 : -1
        let (ax, ay, bx, by) = y1 > y0 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let slope = (bx - ax) / (by - ay)
        let firstRow = max(0, Int(ay.rounded(.down)))
        let lastRow = min(height - 1, Int(by.rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        let limit = Double(width)
        for row in firstRow...lastRow {
            let top = max(ay, Double(row)), bottom = min(by, Double(row + 1))
            guard bottom > top else { continue }
            let xTop = min(limit, max(0, ax + (top - ay) * slope))
            let xBottom = min(limit, max(0, ax + (bottom - ay) * slope))
            addSpan(row: row, xTop, xBottom, weight: (bottom - top) * direction)
        }
    }

    /// Distributes one row's piece of an edge over the cells it crosses, splitting at pixel boundaries.
    private mutating func addSpan(row: Int, _ xa: Double, _ xb: Double, weight: Double) {
        let base = row * stride
        let low = min(xa, xb), high = max(xa, xb)
        let firstCell = Int(low.rounded(.down))
        if high - Double(firstCell) <= 1 {
            let middle = (xa + xb) / 2 - Double(firstCell)
            cells[base + firstCell] += Float(weight * (1 - middle))
            cells[base + firstCell + 1] += Float(weight * middle)
            return
        }
        let span = high - low
        var x = low
        var cell = firstCell
        while x < high {
            let next = min(high, Double(cell + 1))
            let share = weight * (next - x) / span
            let middle = (x + next) / 2 - Double(cell)
            cells[base + cell] += Float(share * (1 - middle))
            cells[base + cell + 1] += Float(share * middle)
            x = next
            cell += 1
        }
    }

    /// Calls `body(x, y, coverage)` for each pixel of the block with coverage above zero, in canvas coordinates.
    func forEachCoveredPixel(_ body: (Int, Int, Float) -> Void) {
        for row in 0..<height {
            var sum: Float = 0
            let base = row * stride
            for column in 0..<width {
                sum += cells[base + column]
                let coverage = min(1, abs(sum))
                if coverage > 0.002 { body(left + column, top + row, coverage) }
            }
        }
    }
}
