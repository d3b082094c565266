import ARVisSpatial
import ARVisSupport
import ARVisTestSupport
import Testing

@testable import ARVisModel

/// Issue 25, item 1: a small file that draws a large mesh from many nodes, or reads one large
/// accessor without data many times, is refused before any work; a mesh drawn by many nodes is
/// written once.
struct InstancingBombTests {
    @Test func aMeshDrawnByManyNodesIsCountedOncePerNode() throws {
        let bomb = HostileModels.instancingBomb(nodes: 300)
        #expect(bomb.count < 20_000)
        #expect(throws: ModelError.self) { try ModelFile.read(bomb) }
        let error = #expect(throws: ModelError.self) { try ModelFile.read(HostileModels.instancingBomb(nodes: 20)) }
        #expect(error?.code == .tooLarge && error?.message.contains("draws more than") == true)
    }

    @Test func oneNodeDrawingTheMeshIsWithinTheBudget() throws {
        let model = try ModelFile.read(HostileModels.instancingBomb(nodes: 1, indexCount: 30_000))
        #expect(model.drawnTriangleCount == 10_000)
    }

    @Test func anAccessorReadByManyPrimitivesExhaustsTheDecodeBudget() async throws {
        // Seconds of decoding before the budget runs out: off the pool (see `offThePool`).
        let error = try await offThePool { () throws -> ModelError? in
            do {
                _ = try ModelFile.read(HostileModels.instancingBomb(nodes: 1, indexCount: 6_000_000, primitives: 40))
                return nil
            } catch let error as ModelError {
                return error
            }
        }
        #expect(error?.code == .tooLarge && error?.message.contains("decode to more than") == true)
    }

    @Test func aMeshDrawnByManyNodesIsWrittenOnceInUSDZ() throws {
        let corners: [SIMD3<Float>] = (0..<2_000).map { index -> SIMD3<Float> in
            SIMD3(Float(index), Float(index % 7), 0)
        }
        var indices: [UInt32] = []
        for first in UInt32(0)..<1_998 { indices += [first, first + 1, first + 2] }
        let mesh = Mesh(name: "Strip", positions: corners, indices: indices)
        func model(drawnBy count: Int) -> Model {
            let nodes = (0..<count).map { index -> Node in
                let columns: [SIMD4<Double>] = [
                    SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(Double(index), 0, 0, 1),
                ]
                return Node(name: "n\(index)", transform: Matrix4(columns: columns), meshes: [0])
            }
            return Model(nodes: nodes, roots: Array(0..<count), meshes: [mesh])
        }
        let once = try USDZWriter().write(model(drawnBy: 1))
        let twenty = try USDZWriter().write(model(drawnBy: 20))
        #expect(twenty.count < once.count * 2, "20 instances took \(twenty.count) bytes, one took \(once.count)")
        let read = try ModelFile.read(twenty)
        #expect(read.drawnTriangleCount == 20 * 1_998)
    }
}
