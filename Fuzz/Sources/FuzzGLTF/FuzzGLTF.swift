// The glTF JSON reader (buffers and images as data: URIs): a model within the limits or an error; it writes as GLB and reads back the same.
import FuzzDriver
import FuzzModelChecks

@testable import ARVisModel

@_cdecl("FuzzGLTF_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    var reader = GLTFReader(external: nil, limits: limits)
    guard let model = try? reader.readJSON(bytes) else { return }
    checkLimits(model)
    checkRoundTrip(model)
}
