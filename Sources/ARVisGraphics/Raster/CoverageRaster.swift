import ARVisSupport

/// Anti-aliased coverage of filled outlines by signed-area accumulation.
///
/// Every edge adds the area it encloses to its left into a buffer of cells; a running sum along each
/// row then gives each pixel's winding coverage, clamped to 0…1 (non-zero fill for outlines whose
/// overlapping parts turn the same way, which is how glyphs, stroke pieces and shapes here are built).
///
/// The cell buffer covers the whole canvas and is reused: only a block is written per fill, and
/// reading a row back returns its cells to zero.
struct CoverageRaster {
    let width: Int, height: Int
    private let stride: Int
    private var cells: UnsafeMutablePointer<Float>
    /// The block written since the last read: left, top, right, bottom in pixels.
    private(set) var left = 0, top = 0, right = 0, bottom = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width + 2
        cells = .allocate(capacity: stride * height + 2)
        cells.initialize(repeating: 0, count: stride * height + 2)
    }

    func deallocate() { cells.deallocate() }

    /// Starts a fill limited to a block of pixels.
    mutating func begin(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = max(0, left)
        self.top = max(0, top)
        self.right = min(width, right)
        self.bottom = min(height, bottom)
    }

    /// Adds the edges of every polyline (closing each one), shifted by `dx`, `dy`.
    mutating func add(_ polylines: [Polyline], dx: Double = 0, dy: Double = 0) {
        for polyline in polylines {
            polyline.points.withUnsafeBufferPointer { points in
                guard points.count > 1 else { return }
                var previous = points[points.count - 1]
                for point in points {
                    addEdge(Point(previous.x + dx, previous.y + dy), Point(point.x + dx, point.y + dy))
                    previous = point
                }
            }
        }
    }

    /// Adds one edge given in canvas pixel coordinates.
    mutating func addEdge(_ from: Point, _ to: Point) {
        guard from.y != to.y, from.x.isFinite, to.x.isFinite, from.y.isFinite, to.y.isFinite else { return }
        let direction: Double = to.y > from.y ? 1 : -1
        let (a, b) = to.y > from.y ? (from, to) : (to, from)
        let slope = (b.x - a.x) / (b.y - a.y)
        let firstRow = max(top, Int(saturating: max(-1, a.y).rounded(.down)))
        let lastRow = min(bottom - 1, Int(saturating: min(Double(height), b.y).rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        let minimum = Double(left)
        let maximum = Double(right)
        for row in firstRow...lastRow {
            let rowTop = max(a.y, Double(row))
            let rowBottom = min(b.y, Double(row + 1))
            guard rowBottom > rowTop else { continue }
            let xTop = min(maximum, max(minimum, a.x + (rowTop - a.y) * slope))
            let xBottom = min(maximum, max(minimum, a.x + (rowBottom - a.y) * slope))
            addSpan(row: row, xTop, xBottom, weight: (rowBottom - rowTop) * direction)
        }
    }

    /// Distributes one row's piece of an edge over the cells it crosses, splitting at pixel boundaries.
    @inline(__always) private mutating func addSpan(row: Int, _ xa: Double, _ xb: Double, weight: Double) {
        let base = cells + row * stride
        let low = min(xa, xb)
        let high = max(xa, xb)
        let firstCell = Int(saturating: low.rounded(.down))
        if high - Double(firstCell) <= 1 {
            let middle = (xa + xb) / 2 - Double(firstCell)
            base[firstCell] += Float(weight * (1 - middle))
            base[firstCell + 1] += Float(weight * middle)
            return
        }
        let perUnit = weight / (high - low)
        var x = low
        var cell = firstCell
        while x < high {
            let next = min(high, Double(cell + 1))
            let share = perUnit * (next - x)
            let middle = (x + next) / 2 - Double(cell)
            base[cell] += Float(share * (1 - middle))
            base[cell + 1] += Float(share * middle)
            x = next
            cell += 1
        }
    }

    /// The cells of row `row`, indexed by canvas column (`left` … `right + 1`); whoever reads them
    /// must return them to zero.
    func row(_ row: Int) -> UnsafeMutablePointer<Float> { cells + row * stride }

    /// Turns row `row` of the block into coverage values in `output[0 ..< right - left]` and clears its cells.
    func readRow(_ row: Int, into output: UnsafeMutablePointer<Float>) {
        let base = cells + row * stride
        var sum: Float = 0
        for column in left..<right {
            sum += base[column]
            base[column] = 0
            output[column - left] = min(1, abs(sum))
        }
        // Cells just past the block can hold the tail of an edge's area.
        base[right] = 0
        base[right + 1] = 0
    }
}
