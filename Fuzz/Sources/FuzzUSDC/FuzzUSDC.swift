// The USD crate reader and the stage reader on its layer: a model within the limits or an error.
import FuzzDriver

@testable import ARVisModel

/// libFuzzer's entry point: tests one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    test(FuzzDriver.bytes(start, count))
    return 0
}

@_cdecl("FuzzUSDC_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv) { fuzzOne($0, $1) }
}

/// Limits small enough that every input is read in a moment and little memory.
let limits: Model.Limits = {
    var limits = Model.Limits()
    (limits.nodes, limits.vertices, limits.triangles, limits.drawnTriangles) = (10_000, 1_000_000, 1_000_000, 1_000_000)
    limits.depth = 64
    return limits
}()

/// The limits held: a model read under `limits` is never larger.
func checkLimits(_ model: Model) {
    FuzzDriver.require(model.nodes.count <= limits.nodes, "\(model.nodes.count) nodes past the limit")
    let vertices = model.meshes.reduce(0) { $0 + $1.positions.count }
    FuzzDriver.require(vertices <= limits.vertices, "\(vertices) vertices past the limit")
    let triangles = model.meshes.reduce(0) { $0 + $1.triangleCount }
    FuzzDriver.require(triangles <= limits.triangles, "\(triangles) triangles past the limit")
}

/// A model read writes as GLB and reads back to the same model.
func checkRoundTrip(_ model: Model) {
    guard let glb = try? ModelFile.write(model, as: .glb) else { return }
    var warnings: [String] = []
    let again = try? ModelFile.read(glb, fileName: "again.glb", limits: limits, warnings: &warnings)
    FuzzDriver.require(again == model, "the model written as GLB reads back differently")
}

func test(_ bytes: [UInt8]) {
    guard let layer = try? CrateReader(bytes).layer() else { return }
    var stage = USDStageReader(layer: layer)
    stage.limits = limits
    guard let model = try? stage.read() else { return }
    checkLimits(model)
}
