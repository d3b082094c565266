/// What Draco's traversals and predictions ask of a corner table (`mesh/corner_table.h`): corner `c`
/// is corner `c % 3` of triangle `c / 3`; -1 is no corner and no vertex.
protocol DracoCorners {
    /// Corners: three per triangle.
    var cornerCount: Int { get }
    /// Vertices, isolated ones included.
    var vertexCount: Int { get }
    /// The vertex at corner `c`, or -1.
    func vertex(_ c: Int) -> Int
    /// The corner across the edge opposite corner `c`, or -1 on a boundary (or a seam).
    func opposite(_ c: Int) -> Int
    /// A corner of vertex `v` from which swinging left meets a boundary, or any of its corners; -1
    /// for an isolated vertex.
    func leftMostCorner(_ v: Int) -> Int
}

extension DracoCorners {
    @inline(__always) static func next(_ c: Int) -> Int { c < 0 ? -1 : c % 3 == 2 ? c - 2 : c + 1 }
    @inline(__always) static func previous(_ c: Int) -> Int { c < 0 ? -1 : c % 3 == 0 ? c + 2 : c - 1 }
    func swingRight(_ c: Int) -> Int { Self.previous(opposite(Self.previous(c))) }
    func swingLeft(_ c: Int) -> Int { Self.next(opposite(Self.next(c))) }
    func rightCorner(_ c: Int) -> Int { c < 0 ? -1 : opposite(Self.next(c)) }
    func leftCorner(_ c: Int) -> Int { c < 0 ? -1 : opposite(Self.previous(c)) }
    func isOnBoundary(_ v: Int) -> Bool {
        let corner = leftMostCorner(v)
        return corner < 0 || swingLeft(corner) < 0
    }

    /// Calls `body` with each corner around the vertex at `start`: `start`, leftwards, then rightwards
    /// from `start` when a boundary is met (`VertexCornersIterator`). At most every corner once, and
    /// nothing allocated (it runs for every vertex).
    func forEachCorner<E: Error>(around start: Int, _ body: (Int) throws(E) -> Void) throws(E) {
        try body(start)
        var corner = start
        var leftwards = true
        var found = 1
        while found <= cornerCount {
            if leftwards {
                corner = swingLeft(corner)
                if corner < 0 {
                    corner = swingRight(start)
                    leftwards = false
                } else if corner == start {
                    break
                }
            } else {
                corner = swingRight(corner)
            }
            if corner < 0 { break }
            try body(corner)
            found += 1
        }
    }
}

/// The mesh's own corner table, as the edgebreaker decoder builds it.
struct DracoCornerTable: DracoCorners {
    var vertices: [Int32]
    var opposites: [Int32]
    var leftMost: [Int32] = []

    init(faces: Int) {
        vertices = [Int32](repeating: -1, count: 3 * faces)
        opposites = [Int32](repeating: -1, count: 3 * faces)
    }

    var cornerCount: Int { vertices.count }
    var vertexCount: Int { leftMost.count }
    func vertex(_ c: Int) -> Int { c < 0 ? -1 : Int(vertices[c]) }
    func opposite(_ c: Int) -> Int { c < 0 ? -1 : Int(opposites[c]) }
    func leftMostCorner(_ v: Int) -> Int { v < 0 ? -1 : Int(leftMost[v]) }

    mutating func setOpposite(_ a: Int, _ b: Int) {
        opposites[a] = Int32(b)
        opposites[b] = Int32(a)
    }

    mutating func setVertex(_ c: Int, _ v: Int) { vertices[c] = Int32(v) }
    mutating func setLeftMost(_ v: Int, _ c: Int) { leftMost[v] = Int32(c) }

    /// A new vertex without corners yet: its index.
    mutating func addVertex() -> Int {
        leftMost.append(-1)
        return leftMost.count - 1
    }
}

/// An attribute's corner table: the mesh's, cut along the attribute's seams, with vertices of its
/// own (`MeshAttributeCornerTable`).
struct DracoAttributeCornerTable: DracoCorners {
    private let base: DracoCornerTable
    private var edgeOnSeam: [Bool]
    private var vertexOnSeam: [Bool]
    private var vertices: [Int32]
    private var leftMost: [Int32] = []

    /// The table of `base` cut along the edges opposite `seams`.
    init(base: DracoCornerTable, seams: [Int], buffer: DracoBuffer) throws(DracoFailure) {
        self.base = base
        edgeOnSeam = [Bool](repeating: false, count: base.cornerCount)
        vertexOnSeam = [Bool](repeating: false, count: base.vertexCount)
        vertices = [Int32](repeating: -1, count: base.cornerCount)
        for corner in seams { markSeam(corner) }
        try recomputeVertices(buffer: buffer)
    }

    var cornerCount: Int { base.cornerCount }
    var vertexCount: Int { leftMost.count }
    func vertex(_ c: Int) -> Int { c < 0 ? -1 : Int(vertices[c]) }
    func opposite(_ c: Int) -> Int { c < 0 || edgeOnSeam[c] ? -1 : base.opposite(c) }
    func leftMostCorner(_ v: Int) -> Int { v < 0 ? -1 : Int(leftMost[v]) }

    /// Whether the mesh vertex at corner `c` lies on one of the attribute's seams.
    func isCornerOnSeam(_ c: Int) -> Bool { vertexOnSeam[base.vertex(c)] }

    private mutating func markSeam(_ corner: Int) {
        for edge in [corner, base.opposite(corner)] where edge >= 0 {
            edgeOnSeam[edge] = true
            vertexOnSeam[base.vertex(Self.next(edge))] = true
            vertexOnSeam[base.vertex(Self.previous(edge))] = true
        }
    }

    /// The attribute's vertices: a mesh vertex splits into one per run of corners between seams.
    private mutating func recomputeVertices(buffer: DracoBuffer) throws(DracoFailure) {
        for v in 0..<base.vertexCount {
            let corner = base.leftMostCorner(v)
            guard corner >= 0 else { continue }
            var first = corner
            if vertexOnSeam[v] {
                var around = swingLeft(first)
                var steps = 0
                while around >= 0 {
                    first = around
                    around = swingLeft(around)
                    steps += 1
                    guard around != corner, steps <= cornerCount else {
                        throw buffer.failure("a vertex's corners loop between seams")
                    }
                }
            }
            var id = leftMost.count
            vertices[first] = Int32(id)
            leftMost.append(Int32(first))
            var around = base.swingRight(first)
            var steps = 0
            while around >= 0, around != first {
                steps += 1
                guard steps <= cornerCount else { throw buffer.failure("a vertex's corners do not close") }
                if edgeOnSeam[Self.next(around)] {
                    id = leftMost.count
                    leftMost.append(Int32(around))
                }
                vertices[around] = Int32(id)
                around = base.swingRight(around)
            }
        }
    }
}
