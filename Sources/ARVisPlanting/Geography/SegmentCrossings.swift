import ARVisSpec
import ARVisSupport

/// Finds where the edges of closed rings cross, with a uniform grid so that only edges sharing a
/// cell are compared: about linear time for real boundaries of a million vertices.
enum SegmentCrossings {
    /// An edge: the ring it belongs to and its first vertex.
    struct Edge: Hashable {
        let ring: Int
        let edge: Int
    }

    /// The first crossing found between two edges that are not neighbours on one ring.
    static func first(in rings: [[SIMD2<Double>]]) -> (first: Edge, second: Edge, point: SIMD2<Double>)? {
        var edges: [(Edge, SIMD2<Double>, SIMD2<Double>)] = []
        let rings = rings.map(withoutRepeats)
        for (ringIndex, ring) in rings.enumerated() {
            let closed = ring.count > 1 && ring.first == ring.last ? Array(ring.dropLast()) : ring
            guard closed.count >= 3 else { continue }
            for index in closed.indices {
                edges.append((Edge(ring: ringIndex, edge: index), closed[index], closed[(index + 1) % closed.count]))
            }
        }
        guard edges.count >= 4 else { return nil }
        var low = edges[0].1
        var high = edges[0].1
        var perimeter = 0.0
        for edge in edges {
            low = pointwiseMin(low, edge.1)
            high = pointwiseMax(high, edge.1)
            perimeter += ((edge.2 - edge.1) * (edge.2 - edge.1)).sum().squareRoot()
        }
        // Cells twice the mean edge long: an edge visits about two, and the boundary about half as
        // many cells as it has edges (at most 65 536 columns).
        let side = max(2 * perimeter / Double(edges.count), (high - low).max() / 65_536, 1e-9)
        let columns = max(1, Int(saturating: ((high.x - low.x) / side).rounded(.up))) + 2
        // (cell, edge) pairs sorted by cell: the edges of each cell end up side by side.
        var entries: [(cell: Int, edge: Int32)] = []
        entries.reserveCapacity(edges.count * 3)
        for (index, edge) in edges.enumerated() {
            visitCells(from: edge.1, to: edge.2, low: low, side: side) { x, y in
                entries.append((y * columns + x, Int32(index)))
            }
        }
        entries.sort { $0.cell < $1.cell }
        var best: (first: Edge, second: Edge, point: SIMD2<Double>)?
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].cell == entries[start].cell { end += 1 }
            defer { start = end }
            guard end - start > 1 else { continue }
            let bucket = entries[start..<end].map(\.edge)
            for i in 0..<(bucket.count - 1) {
                for j in (i + 1)..<bucket.count {
                    let (a, b) = (edges[Int(bucket[i])], edges[Int(bucket[j])])
                    guard !adjacent(a.0, b.0, rings), let point = crossing(a.1, a.2, b.1, b.2) else { continue }
                    let candidate =
                        a.0.ring < b.0.ring || (a.0.ring == b.0.ring && a.0.edge < b.0.edge)
                        ? (a.0, b.0, point) : (b.0, a.0, point)
                    if let current = best,
                        (current.first.ring, current.first.edge, current.second.edge) <= (
                            candidate.0.ring, candidate.0.edge, candidate.1.edge
                        )
                    {
                        continue
                    }
                    best = candidate
                }
            }
        }
        return best
    }

    /// The ring without vertices that repeat the one before (zero-length edges would meet their
    /// neighbours' neighbours).
    private static func withoutRepeats(_ ring: [SIMD2<Double>]) -> [SIMD2<Double>] {
        var result: [SIMD2<Double>] = []
        result.reserveCapacity(ring.count)
        for point in ring where result.last != point { result.append(point) }
        return result
    }

    private static func cell(_ point: SIMD2<Double>, _ low: SIMD2<Double>, _ side: Double) -> (x: Int, y: Int) {
        (
            Int(saturating: ((point.x - low.x) / side).rounded(.down)),
            Int(saturating: ((point.y - low.y) / side).rounded(.down))
        )
    }

    /// Every grid cell the segment from `p` to `q` passes through (Amanatides–Woo), both
    /// neighbours where it passes a corner exactly.
    static func visitCells(
        from p: SIMD2<Double>, to q: SIMD2<Double>, low: SIMD2<Double>, side: Double, _ visit: (Int, Int) -> Void
    ) {
        var (x, y) = cell(p, low, side)
        let end = cell(q, low, side)
        let d = q - p
        let stepX = d.x > 0 ? 1 : -1
        let stepY = d.y > 0 ? 1 : -1
        let nextX = low.x + Double(x + (stepX > 0 ? 1 : 0)) * side
        let nextY = low.y + Double(y + (stepY > 0 ? 1 : 0)) * side
        var tMaxX = d.x != 0 ? (nextX - p.x) / d.x : .infinity
        var tMaxY = d.y != 0 ? (nextY - p.y) / d.y : .infinity
        let tDeltaX = d.x != 0 ? side / abs(d.x) : .infinity
        let tDeltaY = d.y != 0 ? side / abs(d.y) : .infinity
        var steps = abs(end.x - x) + abs(end.y - y) + 2
        visit(x, y)
        while (x, y) != end, steps > 0 {
            steps -= 1
            if tMaxX == tMaxY {
                visit(x + stepX, y)
                visit(x, y + stepY)
                (x, y) = (x + stepX, y + stepY)
                (tMaxX, tMaxY) = (tMaxX + tDeltaX, tMaxY + tDeltaY)
            } else if tMaxX < tMaxY {
                x += stepX
                tMaxX += tDeltaX
            } else {
                y += stepY
                tMaxY += tDeltaY
            }
            visit(x, y)
        }
    }

    /// Whether two edges share a vertex as neighbours on one ring (they meet, by construction).
    private static func adjacent(_ a: Edge, _ b: Edge, _ rings: [[SIMD2<Double>]]) -> Bool {
        guard a.ring == b.ring else { return false }
        let ring = rings[a.ring]
        let count = ring.count > 1 && ring.first == ring.last ? ring.count - 1 : ring.count
        let gap = abs(a.edge - b.edge)
        return gap == 1 || gap == count - 1
    }

    /// Where segments pq and rs meet, touching included, or `nil`.
    static func crossing(_ p: SIMD2<Double>, _ q: SIMD2<Double>, _ r: SIMD2<Double>, _ s: SIMD2<Double>) -> SIMD2<
        Double
    >? {
        let d1 = q - p
        let d2 = s - r
        let denominator = d1.x * d2.y - d1.y * d2.x
        let offset = r - p
        if denominator == 0 {
            // Parallel: they meet only if collinear and overlapping.
            guard offset.x * d1.y - offset.y * d1.x == 0 else { return nil }
            let length = (d1 * d1).sum()
            guard length > 0 else { return nil }
            let t0 = (offset * d1).sum() / length
            let t1 = ((s - p) * d1).sum() / length
            guard max(t0, t1) >= 0, min(t0, t1) <= 1 else { return nil }
            return p + d1 * max(0, min(t0, t1))
        }
        let t = (offset.x * d2.y - offset.y * d2.x) / denominator
        let u = (offset.x * d1.y - offset.y * d1.x) / denominator
        guard (0...1).contains(t), (0...1).contains(u) else { return nil }
        return p + d1 * t
    }
}
