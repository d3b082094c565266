// The spec reader on YAML: a document or diagnostics, never a trap; a document reads back from its
// canonical JSON unchanged.
import ARVisSpec
import ARVisSpecYAML
import Foundation
import FuzzDriver
import FuzzSpecChecks

@_cdecl("FuzzSpecYAML_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    if let document = YAMLSpecReader.read(yaml: Data(bytes), file: "fuzz.yaml", options: options).document {
        checkCanonicalJSON(document)
    }
}
