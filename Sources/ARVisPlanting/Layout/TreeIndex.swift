/// Trees bucketed in a grid on the ground, each keeping its own spacing, so "may a tree with spacing s
/// stand here?" looks at a few cells instead of every tree.
///
/// The rule is the planner's: two trees keep at least the larger of their two spacings apart. Cells
/// live in an open-addressing table keyed by their packed coordinates, and each cell's trees form a
/// chain through `next`, so a lookup costs a multiply and a probe or two, and nothing is allocated per
/// cell.
public struct TreeIndex: Sendable {
    /// The trees' positions, in insertion order.
    public private(set) var positions: [SIMD2<Double>] = []
    /// The trees' spacings, in insertion order.
    public private(set) var spacings: [Double] = []
    /// The largest spacing of any tree.
    public private(set) var largestSpacing = 0.0
    /// The grid's cell size in metres.
    public let cellSize: Double

    private static let emptyKey = Int64.min
    private var keys = [Int64](repeating: TreeIndex.emptyKey, count: 64)
    /// The latest tree of each occupied slot's cell.
    private var heads = [Int32](repeating: -1, count: 64)
    /// For each tree, the previous tree of its cell (−1 ends the chain).
    private var next: [Int32] = []
    private var occupiedCells = 0

    /// Creates an empty index; a cell size near the common spacing keeps lookups to nine cells.
    public init(cellSize: Double) { self.cellSize = cellSize.isFinite ? max(cellSize, 1e-3) : 1 }

    /// How many trees it holds.
    public var count: Int { positions.count }

    /// A cell coordinate, clamped so that no position (even infinite or NaN) can trap.
    private func cellCoordinate(_ value: Double) -> Int64 {
        let cell = (value / cellSize).rounded(.down)
        return cell.isNaN ? 0 : Int64(max(min(cell, 1e9), -1e9))
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { x << 32 | (y & 0xFFFF_FFFF) }

    /// The slot holding `key`, or the empty slot where it would go.
    private func slot(_ key: Int64) -> Int {
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while keys[index] != key && keys[index] != Self.emptyKey { index = (index + 1) & mask }
        return index
    }

    /// Adds a tree.
    public mutating func insert(_ point: SIMD2<Double>, spacing: Double) {
        if (occupiedCells + 1) * 2 > keys.count { grow() }
        let key = Self.key(cellCoordinate(point.x), cellCoordinate(point.y))
        let index = slot(key)
        if keys[index] == Self.emptyKey {
            keys[index] = key
            occupiedCells += 1
        }
        next.append(heads[index])
        heads[index] = Int32(positions.count)
        positions.append(point)
        spacings.append(spacing)
        largestSpacing = max(largestSpacing, spacing)
    }

    /// Doubles the table and re-inserts the cells.
    private mutating func grow() {
        let (oldKeys, oldHeads) = (keys, heads)
        keys = [Int64](repeating: Self.emptyKey, count: oldKeys.count * 2)
        heads = [Int32](repeating: -1, count: oldKeys.count * 2)
        for (key, head) in zip(oldKeys, oldHeads) where key != Self.emptyKey {
            let index = slot(key)
            keys[index] = key
            heads[index] = head
        }
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
        guard !positions.isEmpty, !radius.isNaN else { return }
        let cellReach = (radius / cellSize).rounded(.up)
        // A reach wider than the occupied cells is answered by looking at every tree.
        guard (2 * cellReach + 1) * (2 * cellReach + 1) <= Double(occupiedCells) else {
            for (index, position) in positions.enumerated()
            where !body(index, ((position - point) * (position - point)).sum()) { return }
            return
        }
        let centerX = cellCoordinate(point.x)
        let centerY = cellCoordinate(point.y)
        let reach = Int64(cellReach)
        for dy in -reach...reach {
            for dx in -reach...reach {
                let index = slot(Self.key(centerX + dx, centerY + dy))
                guard keys[index] != Self.emptyKey else { continue }
                var tree = heads[index]
                while tree >= 0 {
                    let offset = positions[Int(tree)] - point
                    if !body(Int(tree), (offset * offset).sum()) { return }
                    tree = next[Int(tree)]
                }
            }
        }
    }
}
