// The USDZ container and the stage it holds: the package's files re-packed read back the same; a model within the limits or an error.
import FuzzDriver
import FuzzModelChecks

@testable import ARVisModel

@_cdecl("FuzzUSDZ_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    guard let package = try? USDZPackage(reading: bytes) else { return }
    let files = package.entries.map { (name: $0.name, data: Array($0.data)) }
    // A name read may be longer than written (each byte that is not UTF-8 reads as 3), past what a zip
    // holds: the writer refuses it rather than trap.
    guard let repacked = try? USDZPackage.write(files) else {
        return FuzzDriver.require(
            files.contains { $0.name.utf8.count > Int(UInt16.max) }, "a package read cannot be written again")
    }
    let again = try? USDZPackage(reading: repacked)
    FuzzDriver.require(
        again?.entries.map(\.name) == files.map(\.name) && again?.entries.map({ Array($0.data) }) == files.map(\.data),
        "the package's files re-packed read back differently")
    var warnings: [String] = []
    guard let model = try? ModelFile.read(bytes, fileName: "fuzz.usdz", limits: limits, warnings: &warnings) else {
        return
    }
    checkLimits(model)
}
