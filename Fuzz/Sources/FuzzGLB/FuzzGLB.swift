// The GLB reader: a model within the limits or an error; a model read writes as GLB and reads back the same.
import ARVisModel
import FuzzDriver
import FuzzModelChecks

@_cdecl("FuzzGLB_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    var warnings: [String] = []
    guard let model = try? ModelFile.read(bytes, fileName: "fuzz.glb", limits: limits, warnings: &warnings) else {
        return
    }
    checkLimits(model)
    checkRoundTrip(model)
}
