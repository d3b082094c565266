// The USD crate reader and the stage reader on its layer: a model within the limits or an error.
import FuzzDriver
import FuzzModelChecks

@testable import ARVisModel

@_cdecl("FuzzUSDC_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    guard let layer = try? CrateReader(bytes).layer() else { return }
    var stage = USDStageReader(layer: layer)
    stage.limits = limits
    guard let model = try? stage.read() else { return }
    checkLimits(model)
}
