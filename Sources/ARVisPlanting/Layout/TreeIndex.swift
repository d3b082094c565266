/// Trees bucketed in a grid on the ground, each keeping its own spacing, so "may a tree with spacing s
/// stand here?" looks at a few cells instead of every tree.
///
/// The rule is the planner's: two trees keep at least the larger of their two spacings apart.
public struct TreeIndex: Sendable {
    private struct Cell: Hashable, Sendable {
        let x: Int, y: Int
    }

    private var cells: [Cell: [Int32]] = [:]
    /// The trees' positions, in insertion order.
    public private(set) var positions: [SIMD2<Double>] = []
    /// The trees' spacings, in insertion order.
    public private(set) var spacings: [Double] = []
    /// The largest spacing of any tree.
    public private(set) var largestSpacing = 0.0
    /// The grid's cell size in metres.
    public let cellSize: Double

    /// Creates an empty index; a cell size near the common spacing keeps lookups to nine cells.
    public init(cellSize: Double) { self.cellSize = cellSize.isFinite ? max(cellSize, 1e-3) : 1 }

    private func cell(_ point: SIMD2<Double>) -> Cell {
        Cell(x: Int((point.x / cellSize).rounded(.down)), y: Int((point.y / cellSize).rounded(.down)))
    }

    /// How many trees it holds.
    public var count: Int { positions.count }

    /// Adds a tree.
    public mutating func insert(_ point: SIMD2<Double>, spacing: Double) {
        cells[cell(point), default: []].append(Int32(positions.count))
        positions.append(point)
        spacings.append(spacing)
        largestSpacing = max(largestSpacing, spacing)
    }

    /// Whether a tree keeping `spacing` at `point` would stand too close to one already here.
    public func conflicts(_ point: SIMD2<Double>, spacing: Double) -> Bool {
        var found = false
        visit(around: point, within: max(spacing, largestSpacing)) { index, distanceSquared in
            let needed = max(spacing, spacings[index])
            if distanceSquared < needed * needed { found = true }
            return !found
        }
        return found
    }

    /// The distance from `point` to the nearest tree within `radius`, skipping the tree numbered
    /// `excluding`; nil when none is that close.
    public func nearestDistance(to point: SIMD2<Double>, within radius: Double, excluding: Int? = nil) -> Double? {
        var best = Double.infinity
        visit(around: point, within: radius) { index, distanceSquared in
            if index != excluding { best = min(best, distanceSquared) }
            return true
        }
        return best <= radius * radius ? best.squareRoot() : nil
    }

    /// Calls `body` with each tree in the cells within `radius` of `point` and its squared distance,
    /// until `body` returns false.
    private func visit(around point: SIMD2<Double>, within radius: Double, _ body: (Int, Double) -> Bool) {
        let center = cell(point)
        let reach = Int((radius / cellSize).rounded(.up))
        guard reach < 1 << 20 else { return }
        for dy in -reach...reach {
            for dx in -reach...reach {
                guard let bucket = cells[Cell(x: center.x + dx, y: center.y + dy)] else { continue }
                for index in bucket {
                    let offset = positions[Int(index)] - point
                    if !body(Int(index), (offset * offset).sum()) { return }
                }
            }
        }
    }
}
