// The GeoJSON reader of planting areas: features or a located error, never a trap; every ring read
// is on the Earth, open, and of at least three distinct positions.
import ARVisPlanting
import Foundation
import FuzzDriver

@_cdecl("FuzzGeoJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    guard let features = try? GeoJSONReader.read(Data(bytes), file: "fuzz.geojson") else { return }
    for polygon in features.polygons {
        for ring in [polygon.outer] + polygon.holes {
            FuzzDriver.require(
                ring.allSatisfy { abs($0.latitude) <= 90 && abs($0.longitude) <= 180 },
                "a ring with a position off the Earth (or not a number)")
            FuzzDriver.require(Set(ring).count >= 3, "a ring of fewer than three distinct positions")
            FuzzDriver.require(ring.count < 2 || ring.first != ring.last, "a ring read still closed")
        }
    }
}
