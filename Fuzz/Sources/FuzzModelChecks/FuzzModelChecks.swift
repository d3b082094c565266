public import ARVisModel
import FuzzDriver

/// Limits small enough that every input is read in a moment and in little memory.
public let limits: Model.Limits = {
    var limits = Model.Limits()
    (limits.nodes, limits.vertices, limits.triangles, limits.drawnTriangles) = (10_000, 1_000_000, 1_000_000, 1_000_000)
    limits.depth = 64
    return limits
}()

/// The limits held: a model read under ``limits`` is never larger.
public func checkLimits(_ model: Model) {
    FuzzDriver.require(model.nodes.count <= limits.nodes, "\(model.nodes.count) nodes past the limit")
    let vertices = model.meshes.reduce(0) { $0 + $1.positions.count }
    FuzzDriver.require(vertices <= limits.vertices, "\(vertices) vertices past the limit")
    let triangles = model.meshes.reduce(0) { $0 + $1.triangleCount }
    FuzzDriver.require(triangles <= limits.triangles, "\(triangles) triangles past the limit")
    FuzzDriver.require(
        model.drawnTriangleCount <= limits.drawnTriangles, "\(model.drawnTriangleCount) drawn triangles past the limit")
    FuzzDriver.require(deepest(model) <= limits.depth, "a node hierarchy deeper than the limit")
}

/// The depth of the model's deepest node, a root being 1 (counted here, not by the reader's own
/// check; the walk stops one level past the limit).
private func deepest(_ model: Model) -> Int {
    var deepest = 0
    var stack = model.roots.map { (node: $0, depth: 1) }
    while let (node, depth) = stack.popLast() {
        deepest = max(deepest, depth)
        guard depth <= limits.depth, model.nodes.indices.contains(node) else { continue }
        stack += model.nodes[node].children.map { (node: $0, depth: depth + 1) }
    }
    return deepest
}

/// A model read writes as GLB and reads back to the same model.
public func checkRoundTrip(_ model: Model) {
    guard let glb = try? ModelFile.write(model, as: .glb) else { return }
    var warnings: [String] = []
    let again = try? ModelFile.read(glb, fileName: "again.glb", limits: limits, warnings: &warnings)
    FuzzDriver.require(again == model, "the model written as GLB reads back differently")
}
