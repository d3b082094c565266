import ARVisSpec
import ARVisSupport

/// A ring's edges sorted into horizontal bands, so asking whether a point is inside looks only at
/// the edges that cross the point's band: constant time for ordinary polygons, where the even-odd
/// test over every edge made a million-vertex area take a minute to plant.
final class RingIndex: Sendable {
    private let ring: [SIMD2<Double>]
    private let minimumY: Double
    private let bandHeight: Double
    /// For each band, the indices of the edges (from vertex i to i + 1) that reach into it.
    private let bands: [[Int32]]

    /// Rings shorter than this are tested edge by edge: an index would cost more than it saves.
    static let threshold = 64

    init(_ ring: [SIMD2<Double>]) {
        self.ring = ring
        var low = ring.first?.y ?? 0
        var high = low
        for point in ring {
            low = min(low, point.y)
            high = max(high, point.y)
        }
        let count = max(1, min(ring.count / 4, 1 << 16))
        minimumY = low
        bandHeight = max((high - low) / Double(count), .leastNormalMagnitude)
        var bands = [[Int32]](repeating: [], count: count)
        for index in ring.indices {
            let a = ring[index].y
            let b = ring[(index + 1) % ring.count].y
            let first = Self.band(min(a, b), low, bandHeight, count)
            let last = Self.band(max(a, b), low, bandHeight, count)
            for band in first...last { bands[band].append(Int32(index)) }
        }
        self.bands = bands
    }

    private static func band(_ y: Double, _ low: Double, _ height: Double, _ count: Int) -> Int {
        min(count - 1, max(0, Int(saturating: ((y - low) / height).rounded(.down))))
    }

    /// Even-odd ray casting over the edges of the point's band.
    func contains(_ point: SIMD2<Double>) -> Bool {
        guard point.y >= minimumY, point.y <= minimumY + bandHeight * Double(bands.count) else { return false }
        var inside = false
        for edge in bands[Self.band(point.y, minimumY, bandHeight, bands.count)] {
            let a = ring[Int(edge)]
            let b = ring[(Int(edge) + 1) % ring.count]
            if (a.y > point.y) != (b.y > point.y) && point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
        }
        return inside
    }
}
