// The spec reader on JSON: a document or diagnostics, never a trap; a document reads back from its
// canonical JSON unchanged.
import ARVisSpec
import Foundation
import FuzzDriver
import FuzzSpecChecks

@_cdecl("FuzzSpecJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    if let document = SpecReader.read(json: Data(bytes), file: "fuzz.json", options: options).document {
        checkCanonicalJSON(document)
    }
}
