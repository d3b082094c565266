import ARVisSupport
import Foundation
import Testing

@testable import ARVisModel

struct CrateTests {
    /// A layer written by ``CrateWriter`` reads back field for field.
    @Test func writtenLayersReadBack() throws {
        var writer = CrateWriter()
        writer.add(
            "/", .pseudoRoot,
            [("upAxis", .token("Y")), ("metersPerUnit", .double(0.01)), ("primChildren", .tokenVector(["A"]))])
        writer.add(
            "/A", .prim,
            [
                ("specifier", .specifier(0)), ("typeName", .token("Mesh")),
                ("apiSchemas", .prependedTokens(["MaterialBindingAPI"])),
                ("properties", .tokenVector(["points", "faceVertexIndices", "material:binding"])),
                ("primChildren", .tokenVector(["B"])),
            ])
        writer.add(
            "/A.points", .attribute,
            [("typeName", .token("point3f[]")), ("default", .floats([0, 1, 2, 3, 4, 5], width: 3))])
        writer.add(
            "/A.faceVertexIndices", .attribute, [("typeName", .token("int[]")), ("default", .ints([0, 1, -2]))])
        writer.add(
            "/A.material:binding", .relationship,
            [("variability", .variability(1)), ("targetPaths", .pathListOp(["/A/B"]))])
        writer.add(
            "/A/B", .prim,
            [
                ("specifier", .specifier(0)), ("typeName", .token("Material")),
                ("documentation", .string("made in a test")),
            ])
        writer.add(
            "/A/B.outputs:surface", .attribute,
            [
                ("typeName", .token("token")), ("connectionPaths", .pathListOp(["/A/B.x"])),
                ("color", .vec3f(SIMD3(0.5, 0.25, 1))), ("m", .matrix4d((0..<16).map(Double.init))),
            ])
        let layer = try CrateReader(writer.write()).layer()
        #expect(
            Set(layer.specs.keys) == [
                "/", "/A", "/A.points", "/A.faceVertexIndices", "/A.material:binding", "/A/B", "/A/B.outputs:surface",
            ])
        #expect(layer.layerField("upAxis")?.text == "Y")
        #expect(layer.layerField("metersPerUnit")?.number == 0.01)
        #expect(layer.specs["/A"]?.fields["apiSchemas"]?.strings == ["MaterialBindingAPI"])
        #expect(layer.specs["/A.points"]?.fields["default"]?.components == [0, 1, 2, 3, 4, 5])
        #expect(layer.specs["/A.faceVertexIndices"]?.fields["default"]?.components == [0, 1, -2])
        #expect(layer.specs["/A.material:binding"]?.fields["targetPaths"]?.strings == ["/A/B"])
        #expect(layer.specs["/A.material:binding"]?.type == .relationship)
        #expect(layer.specs["/A/B"]?.fields["documentation"]?.text == "made in a test")
        let output = layer.specs["/A/B.outputs:surface"]?.fields
        #expect(output?["connectionPaths"]?.strings == ["/A/B.x"])
        #expect(output?["color"]?.components == [0.5, 0.25, 1])
        #expect(output?["m"]?.components == (0..<16).map(Double.init))
    }

    @Test(arguments: [0, 8, 16, 24, 88, 200])
    func truncatedFilesAreRefused(_ length: Int) {
        var writer = CrateWriter()
        writer.add("/", .pseudoRoot, [("primChildren", .tokenVector(["A"]))])
        writer.add("/A", .prim, [("specifier", .specifier(0))])
        let bytes = writer.write()
        #expect(throws: ModelError.self) { try CrateReader(Array(bytes.prefix(length))).layer() }
    }

    @Test func halfFloatsDecode() {
        #expect(CrateReader.half(0x3C00) == 1)
        #expect(CrateReader.half(0xC000) == -2)
        #expect(CrateReader.half(0x3555) == 0x1.554p-2)
        #expect(CrateReader.half(0x0001) == 0x1p-24)
        #expect(CrateReader.half(0x7C00) == .infinity && CrateReader.half(0x7E00).isNaN)
    }

    @Test func newerVersionsAreRefusedWithTheirNumber() throws {
        var bytes = CrateWriter().write()
        bytes[9] = 15
        let error = try #require(throws: ModelError.self) { try CrateReader(bytes) }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("0.15.0"))
    }

    /// Found by fuzzing (docs/fuzzing.md): a compressed path tree whose jumps lead back to nodes
    /// already read forked at each of them, doubling the work per level (minutes, and a GB of paths).
    @Test func aPathTreeThatVisitsANodeAgainIsRefused() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Findings/usdc-path-tree-revisits.usdc")
        let bytes = [UInt8](try Data(contentsOf: finding))
        let error = try #require(throws: ModelError.self) { try CrateReader(bytes) }
        #expect(error.message.contains("path tree has more nodes"))
    }

    /// Found by fuzzing (docs/fuzzing.md): a spec naming a path index the path tree never set had an
    /// empty path, and the stage reader trapped looking for the `/` in it.
    @Test func aSpecWhosePathTheTreeNeverReachesIsRefused() throws {
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Findings/usdc-spec-path-outside-tree.usdc")
        let bytes = [UInt8](try Data(contentsOf: finding))
        let error = try #require(throws: ModelError.self) { try CrateReader(bytes).layer() }
        #expect(error.message.contains("which the path tree never reaches"))
        #expect(error.location == "SPECS")
    }

    /// An error in a field's value names the spec and the field, and what is wrong with the value.
    @Test func aBadValueNamesItsSpecAndField() throws {
        var writer = CrateWriter()
        writer.add("/", .pseudoRoot, [("primChildren", .tokenVector(["P", "Q", "R"]))])
        var bytes = writer.write()
        let reader = try CrateReader(bytes)
        let indices = try ["P", "Q", "R"].map { name in
            try #require((0..<reader.tokenCount).first { reader.tokenAt($0) == name })
        }
        let stored: [UInt8] =
            [3, 0, 0, 0, 0, 0, 0, 0] + indices.flatMap { (index: Int) -> [UInt8] in [UInt8(index), 0, 0, 0] }
        let offset = try #require(bytes.indices.first { bytes[$0...].starts(with: stored) })
        bytes.replaceSubrange((offset + 12)..<(offset + 16), with: [0x39, 0x30, 0, 0])  // token 12 345
        let error = try #require(throws: ModelError.self) { try CrateReader(bytes).layer() }
        #expect(error.message == "token 12345 does not exist")
        #expect(error.location == "/ primChildren")
    }

    @Test func aPrimPathsNameIsItsLastElement() {
        #expect(USDStageReader.name(of: "/Root/Cube") == "Cube")
        #expect(USDStageReader.name(of: "/Root") == "Root")
        #expect(USDStageReader.name(of: "Cube") == "Cube")
        #expect(USDStageReader.name(of: "") == "")
    }

    /// Each path repeats its parent's, so prims nested deep enough make a small file's paths huge.
    @Test func pathsNestedTooDeepAreRefused() throws {
        var writer = CrateWriter()
        let name = String(repeating: "n", count: 2_100)  // 256 levels: 69 MB of paths
        writer.add("/", .pseudoRoot, [("primChildren", .tokenVector([name]))])
        var path = ""
        for _ in 0..<256 {
            path += "/" + name
            writer.add(path, .prim, [("primChildren", .tokenVector([name]))])
        }
        let error = try #require(throws: ModelError.self) { try CrateReader(writer.write()) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("nested too deep"))
    }
}
