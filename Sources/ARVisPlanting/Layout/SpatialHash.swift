public import ARVisSpatial
public import ARVisSpec

/// Points bucketed in a grid on the ground plane (x, z), so "is any point closer than d" is answered
/// by looking at a few cells instead of every point.
public struct SpatialHash: Sendable {
    private var cells: [Cell: [Vec3]] = [:]
    /// The grid's cell size in metres.
    public let cellSize: Double
    /// How many points it holds.
    public private(set) var count = 0
    /// The smallest box holding every point (nil when empty).
    public private(set) var bounds: Box?

    private struct Cell: Hashable, Sendable {
        let x: Int, z: Int
    }

    /// Creates an empty hash with cells of `cellSize` metres (use the smallest distance queried).
    public init(cellSize: Double) { self.cellSize = max(cellSize, 1e-6) }

    /// The cell of a point; coordinates are clamped so that no position (even infinite or NaN) traps.
    private func cell(_ point: Vec3) -> Cell {
        func coordinate(_ value: Double) -> Int {
            let cell = (value / cellSize).rounded(.down)
            return cell.isNaN ? 0 : Int(max(min(cell, 1e12), -1e12))
        }
        return Cell(x: coordinate(point.x), z: coordinate(point.z))
    }

    /// Adds a point.
    public mutating func insert(_ point: Vec3) {
        cells[cell(point), default: []].append(point)
        count += 1
        bounds =
            bounds.map {
                Box(
                    Vec3(min($0.minimum.x, point.x), min($0.minimum.y, point.y), min($0.minimum.z, point.z)),
                    Vec3(max($0.maximum.x, point.x), max($0.maximum.y, point.y), max($0.maximum.z, point.z)))
            }
            ?? Box(point, point)
    }

    /// Whether any point lies closer than `distance` to `point` (3-D distance).
    public func hasPoint(closerThan distance: Double, to point: Vec3) -> Bool {
        let limit = distance * distance
        let closer = { (other: Vec3) in (other - point).dot(other - point) < limit }
        let reach = (distance / cellSize).rounded(.up)
        // A reach wider than the occupied cells is answered by looking at every point.
        guard reach.isFinite, (2 * reach + 1) * (2 * reach + 1) <= Double(cells.count) else {
            return cells.values.contains { $0.contains(where: closer) }
        }
        let center = cell(point)
        let cellReach = Int(reach)
        for dx in -cellReach...cellReach {
            for dz in -cellReach...cellReach
            where cells[Cell(x: center.x + dx, z: center.z + dz)]?.contains(where: closer) == true {
                return true
            }
        }
        return false
    }

    /// Whether any point lies farther than `distance` from `point`: answered from the bounding box
    /// when it decides, else by looking at every point.
    public func hasPoint(fartherThan distance: Double, from point: Vec3) -> Bool {
        guard let bounds else { return false }
        let far = Vec3(
            max(abs(point.x - bounds.minimum.x), abs(point.x - bounds.maximum.x)),
            max(abs(point.y - bounds.minimum.y), abs(point.y - bounds.maximum.y)),
            max(abs(point.z - bounds.minimum.z), abs(point.z - bounds.maximum.z)))
        if far.length <= distance { return false }
        let limit = distance * distance
        for bucket in cells.values {
            for other in bucket {
                let difference = other - point
                if difference.dot(difference) > limit { return true }
            }
        }
        return false
    }

    /// Every point, in no particular order.
    public var points: [Vec3] { cells.values.flatMap { $0 } }
}
