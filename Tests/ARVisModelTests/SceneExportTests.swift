import ARVisModel
import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

struct SceneExportTests {
    private func environment() throws -> Environment {
        let data = try Data(
            contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/two-targets-environment.json"))
        guard case .environment(let environment) = try SpecReader.decode(data) else { throw CancellationError() }
        return environment
    }

    @Test func sceneJSONListsEveryNodeWithWorldTransforms() throws {
        let scene = SceneGraph(try environment())
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(try scene.json().utf8)) as? [String: Any])
        let nodes = try #require(parsed["nodes"] as? [[String: Any]])
        #expect(nodes.count == scene.nodes.count)
        #expect(nodes.map { $0["id"] as? String } == scene.nodes.map(\.id))
        for (node, original) in zip(nodes, scene.nodes) {
            let transform = try #require(node["transform"] as? [Double])
            #expect(transform.count == 16)
            let matrix = try #require(Matrix4(columnMajor: transform))
            #expect((matrix.transformPoint(.zero) - original.pose.translation).length < 1e-8)
            if original.kind == .widget {
                #expect(node["parent"] as? String != nil && node["size"] as? [Double] != nil)
            }
        }
        #expect(Set(scene.nodes.map(\.id)).count == scene.nodes.count, "ids are unique")
    }

    /// A non-finite pose is an error in every format, never `nan` in JSON or an empty glTF.
    @Test func nonFinitePosesAreErrors() throws {
        var scene = SceneGraph(try environment())
        scene.nodes[0].pose.translation = Vec3(.nan, 0, .infinity)
        #expect(throws: SpatialError.self) { try scene.json() }
        let gltf = #expect(throws: ExportError.self) { try GLTFExporter().gltf(scene, textures: [:]) }
        #expect(gltf?.code == .notFinite)
        #expect(gltf?.location == scene.nodes[0].id)
        #expect(throws: ExportError.self) { try GLTFExporter().glb(scene, textures: [:]) }
    }

    /// The glTF's node matrices read back equal to the scene's poses (scaled by quad size).
    @Test func gltfTransformsReadBack() throws {
        let scene = SceneGraph(try environment())
        let gltf = try GLTFExporter().gltf(scene, textures: [:])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(gltf.utf8)) as? [String: Any])
        let nodes = try #require(json["nodes"] as? [[String: Any]])
        #expect((json["asset"] as? [String: Any])?["version"] as? String == "2.0")
        for (node, original) in zip(nodes, scene.nodes) {
            #expect(node["name"] as? String == original.id)
            let entries = try #require(node["matrix"] as? [Double])
            let matrix = try #require(Matrix4(columnMajor: entries))
            var expected = original.pose.matrix
            if let size = original.size, size.x > 0 {
                for row in 0..<3 {
                    expected[row, 0] *= size.x
                    expected[row, 1] *= size.y
                }
            }
            #expect(zip(matrix.columnMajor, expected.columnMajor).allSatisfy { abs($0 - $1) < 1e-9 })
        }
    }

    @Test func glbHasAValidHeaderAndChunks() throws {
        let scene = SceneGraph(try environment())
        let png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]
        let glb = try GLTFExporter().glb(scene, textures: ["image1-widget1": png])
        func word(_ offset: Int) -> UInt32 {
            glb[offset..<offset + 4].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
        }
        #expect(word(0) == 0x4654_6C67 && word(4) == 2 && Int(word(8)) == glb.count)
        let jsonLength = Int(word(12))
        #expect(word(16) == 0x4E4F_534A && jsonLength % 4 == 0)
        #expect(word(20 + jsonLength + 4) == 0x004E_4942)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(glb[20..<(20 + jsonLength)])) as? [String: Any])
        #expect((json["images"] as? [Any])?.count == 1)
    }

    @Test func autoWidgetsInTheSceneDoNotOverlapTheirTarget() throws {
        var widget = WidgetConfiguration(component: .spacer(Component.Spacer()), relativeAnchorPoint: .auto)
        widget.size = Size(width: 800, height: 600)
        let environment = Environment(imageTrackingConfigurations: [
            ImageTrackingConfiguration(
                imageURL: "poster.jpg", physicalWidth: 0.4, relationships: [Relationship(widget), Relationship(widget)])
        ])
        let scene = SceneGraph(environment)
        let target = scene.nodes[0]
        let first = scene.nodes[1]
        let second = scene.nodes[2]
        for widget in [first, second] {
            let gapX =
                abs(widget.pose.translation.x - target.pose.translation.x) - (widget.size!.x + target.size!.x) / 2
            let gapY =
                abs(widget.pose.translation.y - target.pose.translation.y) - (widget.size!.y + target.size!.y) / 2
            #expect(gapX >= -1e-9 || gapY >= -1e-9)
        }
        #expect(first.pose.translation != second.pose.translation)
    }
}

struct SceneCompositionTests {
    @Test func anchorsPlacementsAndAnnotationsHangFromTheirAnchors() throws {
        let json = #"""
            {"worldAnchors": [{"id": "lobby", "position": [1, 0, -2], "relationships": [{"widgetConfiguration": {"relativeAnchorPoint": "center", "relativePosition": [0, 0, 0], "component": {"text": {"content": "Hi"}}}}]}],
             "placements": [{"id": "statue", "model": "statue.usdz", "anchor": "lobby", "position": [0, 0, 0.5], "scale": 2}],
             "annotations": [{"id": "note", "anchor": "lobby", "position": [0, 1, 0], "text": "Look up"}]}
            """#
        guard case .environment(let environment) = try SpecReader.decode(Data(json.utf8)) else {
            Issue.record("not an environment")
            return
        }
        let scene = SceneGraph(environment)
        #expect(scene.nodes.map(\.id) == ["world-lobby", "world-lobby-widget1", "placement-statue", "annotation-note"])
        let placement = scene.nodes[2]
        let annotation = scene.nodes[3]
        #expect(placement.parent == "world-lobby" && placement.asset == "statue.usdz" && placement.pose.scale == 2)
        #expect((placement.pose.translation - Vec3(1, 0, -1.5)).length < 1e-12)
        #expect(
            (annotation.pose.translation - Vec3(1, 1, -2)).length < 1e-12
                && annotation.size == SIMD2(markerSize, markerSize))
        #expect(annotation.text == "Look up")
        let gltf = try GLTFExporter().gltf(scene, textures: [:])
        #expect(gltf.contains("\"marker\""))
    }

    @Test func imageTargetsTakeTheirPicturesAspectRatio() {
        let environment = Environment(imageTrackingConfigurations: [
            ImageTrackingConfiguration(imageURL: "a.png", physicalWidth: 0.3, relationships: [])
        ])
        let scene = SceneGraph(environment, imageAspects: ["a.png": 1.5])
        #expect(scene.nodes[0].size.map { abs($0.x - 0.3) < 1e-12 && abs($0.y - 0.2) < 1e-12 } == true)
        let sized = SceneGraph(
            Environment(imageTrackingConfigurations: [ImageTrackingConfiguration(imageURL: "b.png", relationships: [])]
            ), imageSize: SIMD2(0.42, 0.3))
        #expect(sized.nodes[0].size == SIMD2(0.42, 0.3))
    }
}
