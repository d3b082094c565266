// The spec reader on YAML: a document or diagnostics, never a trap; a document reads back from its canonical JSON unchanged.
import ARVisSpec
import ARVisSpecYAML
import Foundation
import FuzzDriver

@_cdecl("FuzzSpecYAML_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    let result = YAMLSpecReader.read(yaml: Data(bytes), file: "fuzz.yaml", options: ReadOptions(maximumDepth: 64))
    guard let document = result.document else { return }
    let written = SpecWriter.json(document)
    let again = SpecReader.read(json: Data(written.utf8), options: ReadOptions(maximumDepth: 64)).document
    FuzzDriver.require(again == document, "canonical JSON does not read back to the YAML's document")
}
