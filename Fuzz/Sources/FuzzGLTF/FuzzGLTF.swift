// The glTF JSON reader (buffers and images as data: URIs), through ModelFile as every caller reads it: a model within the limits or an error; it writes as GLB and reads back the same.
import ARVisModel
import FuzzDriver
import FuzzModelChecks

@_cdecl("FuzzGLTF_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    var warnings: [String] = []
    guard let model = try? ModelFile.read(bytes, fileName: "fuzz.gltf", limits: limits, warnings: &warnings) else {
        return
    }
    checkLimits(model)
    checkRoundTrip(model)
}
