// Draco mesh streams (`DracoDecoder`, what KHR_draco_mesh_compression carries), decoded within limits
// of 10 000 triangles and points. A mesh that decodes has triangles naming only its points and a
// value per point in every attribute.
import FuzzDriver

@testable import ARVisModel

@_cdecl("FuzzDraco_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

let limits = DracoLimits(maximumFaces: 10_000, maximumPoints: 10_000)

func test(_ bytes: [UInt8]) {
    guard let mesh = try? DracoDecoder.decode(bytes, limits: limits) else { return }
    FuzzDriver.require(mesh.indices.count % 3 == 0, "a mesh whose indices are not triangles")
    FuzzDriver.require(mesh.indices.allSatisfy { Int($0) < mesh.pointCount }, "a triangle naming a point past the last")
    for attribute in mesh.attributes.values {
        FuzzDriver.require(
            attribute.bytes.count == mesh.pointCount * attribute.components * attribute.dataType.size,
            "an attribute without exactly one value per point")
    }
}
