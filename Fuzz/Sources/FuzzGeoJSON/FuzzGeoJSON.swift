// The GeoJSON reader of planting areas: features or a located error, never a trap.
import ARVisPlanting
import Foundation
import FuzzDriver

/// libFuzzer's entry point: tests one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    test(FuzzDriver.bytes(start, count))
    return 0
}

@_cdecl("FuzzGeoJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { fuzzOne($0, $1) }
}

func test(_ bytes: [UInt8]) {
    guard let features = try? GeoJSONReader.read(Data(bytes), file: "fuzz.geojson") else { return }
    for polygon in features.polygons {
        FuzzDriver.require(
            (polygon.outer + polygon.holes.joined()).allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite },
            "a polygon with a coordinate that is not a number")
    }
}
