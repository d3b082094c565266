import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisGraphics
@testable import ARVisRender

struct M4ReductionTests {
    /// A Gaussian random walk of `count` points across `width` points, scaled into 20…220.
    static func walk(_ count: Int, width: Double, seed: UInt64) -> [Point] {
        var generator = SeededGenerator(seed: seed)
        var value = 0.0
        let values = (0..<count).map { _ -> Double in
            let (u, v) = (
                Double.random(in: Double.ulpOfOne...1, using: &generator), Double.random(in: 0...1, using: &generator)
            )
            value += (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
            return value
        }
        let (low, high) = (values.min()!, values.max()!)
        return values.enumerated().map {
            Point(20 + Double($0.offset) / Double(count) * width, 20 + ($0.element - low) / max(high - low, 1) * 200)
        }
    }

    /// The share of pixels whose colour differs by more than 10 % between two drawings of one size.
    static func differingShare(_ first: [Element], _ second: [Element], width: Int, height: Int, scale: Double) throws
        -> Double
    {
        let fonts = try FontLibrary.standard()
        let pixels = [first, second].map { elements -> [Float] in
            let canvas = Canvas(width: width, height: height, fonts: fonts)
            canvas.draw(elements, transform: .scale(scale, scale), opacity: 1)
            return Array(UnsafeBufferPointer(start: canvas.pixels, count: width * height * 4))
        }
        var differing = 0
        for pixel in 0..<(width * height)
        where (0..<4).contains(where: { abs(pixels[0][pixel * 4 + $0] - pixels[1][pixel * 4 + $0]) > 0.1 }) {
            differing += 1
        }
        return Double(differing) / Double(width * height)
    }

    /// The bar: at most 1 % of a chart-sized picture's pixels differ by more than 10 %.
    /// Drawn off the pool: seconds of drawing (see ``offThePool(_:_:)``).
    @Test(arguments: [1.0, 2.0])
    func aReducedLineLooksLikeTheWholeLine(scale: Double) async throws {
        let (count, kept, share) = try await offThePool { () throws -> (Int, [Int], Double) in
            let points = Self.walk(300_000, width: 900, seed: UInt64(scale * 7))
            let kept = M4Reduction.kept(points, columnWidth: ChartPlotter.columnWidth, span: 900)
            let stroke = Stroke(color: .black, width: 1, isRound: true)
            let whole = [Element.shape(Shape(path: .polyline(points), stroke: stroke))]
            let reduced = [Element.shape(Shape(path: .polyline(kept.map { points[$0] }), stroke: stroke))]
            let share = try Self.differingShare(
                whole, reduced, width: Int(940 * scale), height: Int(240 * scale), scale: scale)
            return (points.count, kept, share)
        }
        #expect(kept.count < count / 4)
        #expect(kept.first == 0 && kept.last == count - 1)
        #expect(share <= 0.01, "\(share * 100) % of pixels differ")
    }

    @Test func unsortedOrSparsePointsAreKept() {
        let sparse = Self.walk(100, width: 600, seed: 1)
        #expect(M4Reduction.kept(sparse, columnWidth: 0.25, span: 600).count == 100)
        let unsorted = Self.walk(100_000, width: 600, seed: 2).reversed()
        #expect(M4Reduction.kept(Array(unsorted), columnWidth: 0.25, span: 600).count == 100_000)
    }

    /// Binned points look like every point: a dense two-colour Gaussian scatter of 200 000 points with
    /// 5-point symbols, drawn at 1× and 2×, off the pool (see ``offThePool(_:_:)``).
    @Test(arguments: [1.0, 2.0])
    func binnedPointsLookLikeEveryPoint(scale: Double) async throws {
        let (count, keptCount, share) = try await offThePool { () throws -> (Int, Int, Double) in
            var generator = SeededGenerator(seed: UInt64(scale * 11))
            func gaussian() -> Double {
                let (u, v) = (
                    Double.random(in: Double.ulpOfOne...1, using: &generator),
                    Double.random(in: 0...1, using: &generator)
                )
                return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
            }
            let points = (0..<200_000).map { _ in Point(150 + 40 * gaussian(), 100 + 30 * gaussian()) }
            let colors = points.indices.map {
                $0 % 3 == 0 ? DrawingColor(red: 255, green: 149, blue: 0) : DrawingColor(red: 0, green: 122, blue: 255)
            }
            let kept = PointBinning.kept(points, colors: colors)
            func dots(_ indices: [Int]) -> [Element] {
                indices.map {
                    .shape(
                        Shape(
                            path: .ellipse(in: Rect(x: points[$0].x - 2.5, y: points[$0].y - 2.5, width: 5, height: 5)),
                            fill: colors[$0]))
                }
            }
            let share = try Self.differingShare(
                dots(Array(points.indices)), dots(kept), width: Int(300 * scale), height: Int(200 * scale),
                scale: scale)
            return (points.count, kept.count, share)
        }
        #expect(keptCount < count * 6 / 10)
        #expect(share <= 0.01, "\(share * 100) % of pixels differ")
    }

    /// However many points, at most one per cell and colour is drawn.
    @Test func binnedPointsAreBoundedByThePlotArea() {
        var generator = SeededGenerator(seed: 5)
        let points = (0..<1_000_000).map { _ in
            Point(Double.random(in: 0..<100, using: &generator), Double.random(in: 0..<100, using: &generator))
        }
        let kept = PointBinning.kept(points, colors: Array(repeating: .black, count: points.count))
        #expect(kept.count <= 200 * 200)
        #expect(kept == kept.sorted())
    }

    @Test func sparsePointsAreAllKeptAndTheTopmostWins() {
        let sparse = (0..<1000).map { Point(Double($0), Double($0 % 7)) }
        #expect(PointBinning.kept(sparse, colors: Array(repeating: .black, count: 1000)) == Array(0..<1000))
        // Three points in one cell: orange, blue, orange. Blue and the last orange are kept, blue first.
        let stacked = [Point(1, 1), Point(1.01, 1), Point(1.02, 1)]
        let orange = DrawingColor(red: 255, green: 149, blue: 0)
        #expect(PointBinning.kept(stacked, colors: [orange, .black, orange]) == [1, 2])
    }
}
