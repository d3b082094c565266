// The GeoJSON reader of planting areas: features or a located error, never a trap.
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
        FuzzDriver.require(
            (polygon.outer + polygon.holes.joined()).allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite },
            "a polygon with a coordinate that is not a number")
    }
}
