import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisPlanting

struct SiteCheckTests {
    static func polygon(_ pairs: [(Double, Double)]) -> GeoPolygon {
        GeoPolygon(outer: pairs.map { GeoCoordinate(latitude: $0.1, longitude: $0.0) })
    }

    static func code(_ pairs: [(Double, Double)]) -> PlantingError.Code? {
        do throws(PlantingError) {
            try SiteCheck.check([polygon(pairs)], file: "area.geojson")
            return nil
        } catch {
            return error.code
        }
    }

    @Test func ordinaryParcelsPass() {
        #expect(Self.code([(-8.8, 39.7), (-8.79, 39.7), (-8.79, 39.71), (-8.8, 39.71), (-8.8, 39.7)]) == nil)
        // A repeated vertex is a zero-length edge, not a crossing.
        #expect(
            Self.code([(-8.8, 39.7), (-8.79, 39.7), (-8.79, 39.7), (-8.79, 39.71), (-8.8, 39.71), (-8.8, 39.7)]) == nil)
        // A parcel split at the antimeridian, one part on each side, is one frame's worth.
        let east = Self.polygon([(179.99, 10), (180, 10), (180, 10.01), (179.99, 10.01), (179.99, 10)])
        let west = Self.polygon([(-180, 10), (-179.99, 10), (-179.99, 10.01), (-180, 10.01), (-180, 10)])
        #expect(throws: Never.self) { try SiteCheck.check([east, west], file: "split.geojson") }
    }

    @Test func whatOneFrameCannotHoldIsRefused() {
        #expect(Self.code([(-180, -90), (180, -90), (180, 90), (-180, 90), (-180, -90)]) == .tooCloseToPole)
        #expect(
            Self.code([(179.99, 10), (-179.99, 10), (-179.99, 10.01), (179.99, 10.01), (179.99, 10)])
                == .crossesAntimeridian)
        #expect(
            Self.code([(-179.9, 0), (179.9, 0), (179.9, 0.001), (-179.9, 0.001), (-179.9, 0)]) == .crossesAntimeridian)
        #expect(Self.code([(0, 0), (2, 0), (2, 0.01), (0, 0.01), (0, 0)]) == .tooLarge)
        #expect(Self.code([(0, 89.99), (90, 89.99), (180, 89.99), (0, 89.99)]) == .tooCloseToPole)
    }

    @Test func aBowTieSaysWhereItCrosses() throws {
        do throws(PlantingError) {
            try SiteCheck.check(
                [Self.polygon([(0, 0), (0.001, 0.001), (0.001, 0), (0, 0.001), (0, 0)])], file: "bow.geojson")
            Issue.record("a bow tie was accepted")
        } catch {
            #expect(error.code == .selfIntersecting)
            #expect(error.description.hasPrefix("bow.geojson: polygon 1: ring 1, edge 1, crosses ring 1, edge 3"))
            #expect(error.message.contains("longitude 0.0005000, latitude 0.0005000"))
        }
    }

    /// Random rings: the grid finds a crossing exactly when comparing every pair of edges does.
    @Test(arguments: 0..<40)
    func crossingsMatchBruteForce(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let count = Int.random(in: 4...40, using: &generator)
        let ring = (0..<count).map { _ in
            SIMD2(Double.random(in: 0...100, using: &generator), Double.random(in: 0...100, using: &generator))
        }
        var brute = false
        for i in 0..<count {
            for j in (i + 1)..<count where j != i + 1 && !(i == 0 && j == count - 1) {
                if SegmentCrossings.crossing(ring[i], ring[(i + 1) % count], ring[j], ring[(j + 1) % count]) != nil {
                    brute = true
                }
            }
        }
        #expect((SegmentCrossings.first(in: [ring]) != nil) == brute)
    }

    /// The banded index answers containment exactly as the even-odd test over every edge.
    @Test(arguments: 0..<5)
    func ringIndexMatchesEvenOdd(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let vertices = 500
        let ring = (0..<vertices).map { index -> SIMD2<Double> in
            let angle = 2 * Double.pi * Double(index) / Double(vertices)
            let radius = Double.random(in: 40...100, using: &generator)
            return SIMD2(radius * cos(angle), radius * sin(angle))
        }
        let index = RingIndex(ring)
        for _ in 0..<2_000 {
            let point = SIMD2(
                Double.random(in: -110...110, using: &generator), Double.random(in: -110...110, using: &generator))
            #expect(index.contains(point) == Area.ringContains(ring, point))
        }
    }

    @Test func hugeOrientationsTurnTheRowsAsTheirRemainderDoes() {
        let site = PlantingSite(areas: [Area(outer: [SIMD2(0, 0), SIMD2(100, 0), SIMD2(100, 100), SIMD2(0, 100)])])
        let huge = TriangularGrid.points(site, spacing: 5, orientation: 1e308)
        #expect(!huge.isEmpty)
        #expect(
            huge == TriangularGrid.points(site, spacing: 5, orientation: 1e308.truncatingRemainder(dividingBy: 360)))
    }
}
