import ARVisSpatial
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

struct GeodesyTests {
    /// Positions within 10 km of the origin go to local metres and back to within a millimetre.
    @Test func roundTripsWithinAMillimetreOver10Kilometres() {
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<200 {
            let frame = LocalTangentFrame(
                latitude: .random(in: -80...80, using: &generator),
                longitude: .random(in: -180...180, using: &generator),
                altitude: .random(in: -50...3000, using: &generator))
            let offset = Vec3(
                .random(in: -10_000...10_000, using: &generator), .random(in: -10_000...10_000, using: &generator),
                .random(in: -200...200, using: &generator))
            let geodetic = frame.geodetic(enu: offset)
            let back = frame.enu(
                latitude: geodetic.latitude, longitude: geodetic.longitude, altitude: geodetic.altitude)
            #expect((back - offset).length < 0.001)
        }
    }

    @Test func knownDistances() {
        // One arc-second of latitude at 45° N is 30.87 m north; a degree of longitude at the equator 111 319.49 m east.
        let frame = LocalTangentFrame(latitude: 45, longitude: 7)
        let north = frame.enu(latitude: 45 + 1.0 / 3600, longitude: 7, altitude: 0)
        #expect(abs(north.y - 30.87) < 0.01 && abs(north.x) < 1e-6)
        let equator = LocalTangentFrame(latitude: 0, longitude: 0).enu(latitude: 0, longitude: 1, altitude: 0)
        #expect(abs(equator.x - 111_314.0) < 10)  // the chord is slightly shorter than the arc (111 319.5 m)
        #expect(equator.z < 0)  // the Earth curves away below the tangent plane
    }

    @Test func headingsTurnTheAnchorClockwiseFromNorth() {
        let frame = LocalTangentFrame(latitude: 38.7, longitude: -9.1)
        let east = frame.pose(latitude: 38.7, longitude: -9.1, altitude: 0, heading: 90)
        #expect((east.front - Vec3(1, 0, 0)).length < 1e-9)
        let north = frame.pose(latitude: 38.7, longitude: -9.1, altitude: 0, heading: 0)
        #expect((north.front - Vec3(0, 0, -1)).length < 1e-9)
    }
}
