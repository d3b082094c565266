import ARVisSpec

/// A planting area in local metres on the ground plane: an outer ring and holes, each a closed
/// polygon of (x, z) points (the last point joins the first).
public struct Area: Sendable, Hashable {
    /// The outer boundary.
    public var outer: [SIMD2<Double>] { didSet { index = Self.index(outer, holes) } }
    /// Regions inside the boundary where nothing is planted.
    public var holes: [[SIMD2<Double>]] { didSet { index = Self.index(outer, holes) } }
    /// Band indexes of long rings (outer first, then holes), for containment in constant time.
    private var index: [RingIndex?]

    /// Creates an area.
    public init(outer: [SIMD2<Double>], holes: [[SIMD2<Double>]] = []) {
        self.outer = outer
        self.holes = holes
        index = Self.index(outer, holes)
    }

    private static func index(_ outer: [SIMD2<Double>], _ holes: [[SIMD2<Double>]]) -> [RingIndex?] {
        ([outer] + holes).map { $0.count >= RingIndex.threshold ? RingIndex($0) : nil }
    }

    /// Whether a point lies inside the boundary and outside every hole.
    public func contains(_ point: SIMD2<Double>) -> Bool {
        inside(ring: 0, point) && !holes.indices.contains { inside(ring: $0 + 1, point) }
    }

    private func inside(ring: Int, _ point: SIMD2<Double>) -> Bool {
        if let index = index[ring] { return index.contains(point) }
        return Self.ringContains(ring == 0 ? outer : holes[ring - 1], point)
    }

    /// Compares the outer boundary and the holes point by point, not the index derived from them.
    public static func == (lhs: Area, rhs: Area) -> Bool { lhs.outer == rhs.outer && lhs.holes == rhs.holes }

    /// Hashes the outer boundary and the holes, the parts `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(outer)
        hasher.combine(holes)
    }

    /// Even-odd ray casting.
    static func ringContains(_ ring: [SIMD2<Double>], _ point: SIMD2<Double>) -> Bool {
        var inside = false
        var previous = ring.count - 1
        for index in ring.indices {
            let a = ring[index]
            let b = ring[previous]
            if (a.y > point.y) != (b.y > point.y) && point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            previous = index
        }
        return inside
    }

    /// The signed area of a ring (shoelace): positive when anticlockwise.
    static func signedArea(_ ring: [SIMD2<Double>]) -> Double {
        var twice = 0.0
        var previous = ring.count - 1
        for index in ring.indices {
            twice += ring[previous].x * ring[index].y - ring[index].x * ring[previous].y
            previous = index
        }
        return twice / 2
    }

    /// The area enclosed by a ring.
    static func ringArea(_ ring: [SIMD2<Double>]) -> Double { abs(signedArea(ring)) }

    /// Whether a ring runs clockwise (x east, y north).
    static func isClockwise(_ ring: [SIMD2<Double>]) -> Bool { signedArea(ring) < 0 }

    /// The area in square metres: the boundary's minus the holes'.
    public var squareMetres: Double { Self.ringArea(outer) - holes.reduce(0) { $0 + Self.ringArea($1) } }

    /// The bounding box of the boundary: minimum and maximum corners.
    public var bounds: (minimum: SIMD2<Double>, maximum: SIMD2<Double>) {
        guard var low = outer.first else { return (.zero, .zero) }
        var high = low
        for point in outer {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        return (low, high)
    }
}
