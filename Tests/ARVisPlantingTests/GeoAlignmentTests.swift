import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// A session aligned to a project's frame from a geolocation fix and a compass reading.
struct GeoAlignmentTests {
    /// A turn about y by `degrees` (counter-clockwise seen from above) then a translation.
    private func rigid(_ degrees: Double, _ t: Vec3) -> Matrix4 {
        let a = degrees * .pi / 180
        return Matrix4(columns: [
            SIMD4(cos(a), 0, -sin(a), 0), SIMD4(0, 1, 0, 0), SIMD4(sin(a), 0, cos(a), 0), SIMD4(t.x, t.y, t.z, 1),
        ])
    }

    private func apply(_ m: Matrix4, _ p: Vec3) -> Vec3 {
        let q = m * SIMD4(p.x, p.y, p.z, 1)
        return Vec3(q.x, q.y, q.z)
    }

    @Test func exactReadingsGiveTheSessionsTrueFrame() throws {
        let site = GeoAlignment.ProjectSite(
            origin: GeoCoordinate(latitude: 39.6129, longitude: -8.6623), heading: 30)
        let map = GeoFrame(origin: site.origin)
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<50 {
            // The truth: where the session's frame lies in the project's.
            let truth = rigid(
                Double.random(in: 0..<360, using: &generator),
                Vec3(Double.random(in: -40...40, using: &generator), 0, Double.random(in: -40...40, using: &generator)))
            // A device somewhere in the session, looking somewhere level-ish.
            let device = Vec3(
                Double.random(in: -5...5, using: &generator), 1.4, Double.random(in: -5...5, using: &generator))
            let look = Double.random(in: 0..<360, using: &generator) * .pi / 180
            let forward = Vec3(sin(look), -0.3, -cos(look))
            // What its GPS and compass read, from the truth.
            let inProject = apply(truth, device)
            let ahead = apply(truth, device + forward) - inProject
            // Project → map: the project's −z points at 30° clockwise from north.
            func east(_ p: Vec3) -> SIMD2<Double> {
                let h = site.heading * .pi / 180
                let (right, forward) = (p.x, -p.z)
                return SIMD2(right * cos(h) + forward * sin(h), -right * sin(h) + forward * cos(h))
            }
            let onMap = east(inProject)
            let aheadOnMap = east(ahead)
            let heading = atan2(aheadOnMap.x, aheadOnMap.y) * 180 / .pi
            let reading = GeoAlignment.Reading(
                coordinate: map.coordinate(onMap), accuracy: 3, heading: heading, headingAccuracy: 5,
                position: device, forward: forward)
            let alignment = try GeoAlignment(reading, site: site)
            // Its transform takes project points to where the session sees them.
            let sessionFromProject = alignment.sessionFromProject
            for corner in [Vec3(0, 0, 0), Vec3(10, 0, -20), Vec3(-30, 2, 5)] {
                let expected = apply(truth.inverse ?? .identity, corner)
                #expect((apply(sessionFromProject, corner) - expected).length < 1e-3)
            }
        }
    }

    @Test func theErrorGrowsWithDistanceAsTheHeadingSwings() throws {
        let site = GeoAlignment.ProjectSite(origin: GeoCoordinate(latitude: 41.15, longitude: -8.61), heading: 0)
        let reading = GeoAlignment.Reading(
            coordinate: site.origin, accuracy: 4, heading: 0, headingAccuracy: 10, position: .zero,
            forward: Vec3(0, 0, -1))
        let alignment = try GeoAlignment(reading, site: site)
        #expect(alignment.expectedError(atDistance: 0) == 4)
        #expect(abs(alignment.expectedError(atDistance: 20) - (16 + pow(20 * sin(.pi / 18), 2)).squareRoot()) < 1e-9)
    }

    @Test func readingsThatCannotAlignSaySo() {
        let site = GeoAlignment.ProjectSite(origin: GeoCoordinate(latitude: 41.15, longitude: -8.61), heading: 0)
        #expect(throws: GeoAlignment.Problem.noForwardDirection) {
            try GeoAlignment(
                .init(
                    coordinate: site.origin, accuracy: 4, heading: 0, headingAccuracy: 10, position: .zero,
                    forward: Vec3(0, -1, 0)), site: site)
        }
        #expect {
            try GeoAlignment(
                .init(
                    coordinate: GeoCoordinate(latitude: 38.7, longitude: -9.14), accuracy: 4, heading: 0,
                    headingAccuracy: 10, position: .zero, forward: Vec3(0, 0, -1)), site: site)
        } throws: { error in
            if case .tooFar(let distance, _) = error as? GeoAlignment.Problem { return distance > 200_000 }
            return false
        }
    }
}
