// The spec reader on JSON: a document or diagnostics, never a trap; a document reads back from its canonical JSON unchanged.
import ARVisSpec
import Foundation
import FuzzDriver

@_cdecl("FuzzSpecJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    let result = SpecReader.read(json: Data(bytes), file: "fuzz.json", options: ReadOptions(maximumDepth: 64))
    guard let document = result.document else { return }
    let written = SpecWriter.json(document)
    let again = SpecReader.read(json: Data(written.utf8), options: ReadOptions(maximumDepth: 64)).document
    FuzzDriver.require(again == document, "canonical JSON does not read back to the same document")
    if let again { FuzzDriver.require(SpecWriter.json(again) == written, "canonical JSON is not stable") }
}
