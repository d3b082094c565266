/// The order an attribute decoder's values come in, and which point each belongs to: Draco's mesh
/// traversals (`depth_first_traverser.h`, `max_prediction_degree_traverser.h`) observing each
/// vertex the first time they reach it.
struct DracoSequence {
    /// The point of each value, in decoding order.
    var pointIDs: [Int32] = []
    /// The corner each value was first reached at.
    var valueCorners: [Int32] = []
    /// The value of each vertex of the traversed table (-1 before it is reached).
    var vertexValues: [Int32]
    /// The value of each point.
    var pointValues: [Int32] = []

    /// Values in point order, one per point (sequential connectivity).
    static func linear(points: Int) -> DracoSequence {
        let identity = (0..<points).map(Int32.init)
        return DracoSequence(pointIDs: identity, valueCorners: [], vertexValues: [], pointValues: identity)
    }

    /// The order of a traversal of `table`, depth first or by prediction degree, over every
    /// triangle in turn; `cornerPoints` gives each corner's point.
    static func traversal<T: DracoCorners>(
        of table: T, maximumDegree: Bool, vertexSlots: Int, cornerPoints: [Int32], points: Int, buffer: DracoBuffer
    ) throws(DracoFailure) -> DracoSequence {
        var sequence = DracoSequence(vertexValues: [Int32](repeating: -1, count: vertexSlots))
        sequence.pointIDs.reserveCapacity(vertexSlots)
        sequence.valueCorners.reserveCapacity(vertexSlots)
        var walk = DracoTraversal(table: table, sequence: sequence, cornerPoints: cornerPoints, buffer: buffer)
        for face in 0..<table.cornerCount / 3 {
            if maximumDegree { try walk.byDegree(from: 3 * face) } else { try walk.depthFirst(from: 3 * face) }
        }
        sequence = walk.sequence
        sequence.pointValues = [Int32](repeating: -1, count: points)
        for corner in 0..<table.cornerCount {
            let point = Int(cornerPoints[corner])
            let vertex = table.vertex(corner)
            guard point < points, vertex >= 0, vertex < vertexSlots else {
                throw buffer.failure("a corner outside the points")
            }
            sequence.pointValues[point] = sequence.vertexValues[vertex]
        }
        return sequence
    }
}

/// One traversal's state.
private struct DracoTraversal<T: DracoCorners> {
    let table: T
    var sequence: DracoSequence
    let cornerPoints: [Int32]
    let buffer: DracoBuffer
    var faceVisited: [Bool]
    var vertexVisited: [Bool]
    var degrees: [Int32]
    var stacks: [[Int]] = [[], [], []]
    var best = 0

    init(table: T, sequence: DracoSequence, cornerPoints: [Int32], buffer: DracoBuffer) {
        self.table = table
        self.sequence = sequence
        self.cornerPoints = cornerPoints
        self.buffer = buffer
        faceVisited = [Bool](repeating: false, count: table.cornerCount / 3)
        vertexVisited = [Bool](repeating: false, count: sequence.vertexValues.count)
        degrees = [Int32](repeating: 0, count: sequence.vertexValues.count)
    }

    private func isVisited(face corner: Int) -> Bool { corner < 0 || faceVisited[corner / 3] }

    /// Records vertex `v` reached at `corner`, the first time.
    private mutating func observe(_ v: Int, at corner: Int) throws(DracoFailure) {
        guard v >= 0, v < vertexVisited.count else {
            throw buffer.failure("a traversal reached a corner without a vertex")
        }
        guard !vertexVisited[v] else { return }
        vertexVisited[v] = true
        sequence.vertexValues[v] = Int32(sequence.pointIDs.count)
        sequence.pointIDs.append(cornerPoints[corner])
        sequence.valueCorners.append(Int32(corner))
    }

    mutating func depthFirst(from start: Int) throws(DracoFailure) {
        guard !faceVisited[start / 3] else { return }
        try observe(table.vertex(T.next(start)), at: T.next(start))
        try observe(table.vertex(T.previous(start)), at: T.previous(start))
        var stack = [start]
        while var corner = stack.last {
            if corner < 0 || faceVisited[corner / 3] {
                stack.removeLast()
                continue
            }
            while true {
                faceVisited[corner / 3] = true
                let v = table.vertex(corner)
                guard v >= 0 else { throw buffer.failure("a traversal reached a corner without a vertex") }
                if !vertexVisited[v] {
                    let boundary = table.isOnBoundary(v)
                    try observe(v, at: corner)
                    if !boundary {
                        corner = table.rightCorner(corner)
                        if corner < 0 { break }
                        continue
                    }
                }
                let right = table.rightCorner(corner)
                let left = table.leftCorner(corner)
                if isVisited(face: right) {
                    if isVisited(face: left) {
                        stack.removeLast()
                        break
                    }
                    corner = left
                } else if isVisited(face: left) {
                    corner = right
                } else {
                    stack[stack.count - 1] = left
                    stack.append(right)
                    break
                }
            }
        }
    }

    mutating func byDegree(from start: Int) throws(DracoFailure) {
        guard !faceVisited[start / 3] else { return }
        stacks[0].append(start)
        best = 0
        try observe(table.vertex(T.next(start)), at: T.next(start))
        try observe(table.vertex(T.previous(start)), at: T.previous(start))
        try observe(table.vertex(start), at: start)
        while var corner = pop() {
            if faceVisited[corner / 3] { continue }
            while true {
                faceVisited[corner / 3] = true
                try observe(table.vertex(corner), at: corner)
                let right = table.rightCorner(corner)
                let left = table.leftCorner(corner)
                let rightVisited = isVisited(face: right)
                let leftVisited = isVisited(face: left)
                if !leftVisited {
                    let priority = self.priority(left)
                    if rightVisited, priority <= best {
                        corner = left
                        continue
                    }
                    push(left, priority)
                }
                if !rightVisited {
                    let priority = self.priority(right)
                    if priority <= best {
                        corner = right
                        continue
                    }
                    push(right, priority)
                }
                break
            }
        }
    }

    private mutating func pop() -> Int? {
        for index in best..<3 where !stacks[index].isEmpty {
            best = index
            return stacks[index].removeLast()
        }
        return nil
    }

    private mutating func push(_ corner: Int, _ priority: Int) {
        stacks[priority].append(corner)
        if priority < best { best = priority }
    }

    private mutating func priority(_ corner: Int) -> Int {
        let v = table.vertex(corner)
        guard v >= 0, !vertexVisited[v] else { return 0 }
        degrees[v] += 1
        return degrees[v] > 1 ? 1 : 2
    }
}
