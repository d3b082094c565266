// The spec reader on JSON: a document or diagnostics, never a trap; a document reads back from its canonical JSON unchanged.
import ARVisSpec
import Foundation
import FuzzDriver

/// libFuzzer's entry point: tests one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    test(FuzzDriver.bytes(start, count))
    return 0
}

@_cdecl("FuzzSpecJSON_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { fuzzOne($0, $1) }
}

func test(_ bytes: [UInt8]) {
    let result = SpecReader.read(json: Data(bytes), file: "fuzz.json", options: ReadOptions(maximumDepth: 64))
    guard let document = result.document else { return }
    let written = SpecWriter.json(document)
    let again = SpecReader.read(json: Data(written.utf8), options: ReadOptions(maximumDepth: 64)).document
    FuzzDriver.require(again == document, "canonical JSON does not read back to the same document")
    if let again { FuzzDriver.require(SpecWriter.json(again) == written, "canonical JSON is not stable") }
}
