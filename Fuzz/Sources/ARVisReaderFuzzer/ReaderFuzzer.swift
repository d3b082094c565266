import ARVisSpec
import ARVisSpecYAML
import Foundation

/// libFuzzer entry point: every input must read to a document or to diagnostics, never crash or hang,
/// and every document must survive a canonical JSON round trip unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let json = SpecReader.read(json: data, file: "fuzz.json", options: ReadOptions(maximumDepth: 64))
    if let document = json.document {
        let again = SpecReader.read(json: Data(SpecWriter.json(document).utf8)).document
        precondition(again == document, "canonical JSON does not round-trip")
    }
    _ = YAMLSpecReader.read(yaml: data, file: "fuzz.yaml", options: ReadOptions(maximumDepth: 64))
    return 0
}

/// libFuzzer's driver, which parses the command line and runs the loop.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's entry point under the module's name; hand it to libFuzzer.
@_cdecl("ARVisReaderFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { fuzz($0, $1) }
}
