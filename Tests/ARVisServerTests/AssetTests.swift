import ARVisClient
import ARVisModel
import ARVisServer
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The gallery: uploads, processing, listing, renaming, the trash, downloads with ranges, the
/// viewer page and the scene USDZ of a spec placing an asset, on a real socket (the processing
/// service runs).
struct AssetTests: ServerTesting {
    let scratch = ScratchFolder("server-assets")

    private func upload(
        _ client: any TestClientProtocol, _ headers: HTTPFields, name: String, bytes: [UInt8],
        project: String = "shop"
    ) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "model/gltf-binary"
        return try await client.execute(
            uri: "/api/v1/projects/\(project)/assets?name=\(name)", method: .post, headers: headers,
            body: ByteBuffer(bytes: bytes))
    }

    /// The running server's asset folder (the one data folder of this test's scratch).
    private func assetFolder() throws -> URL {
        let folders = try FileManager.default.contentsOfDirectory(at: scratch.url, includingPropertiesForKeys: nil)
        let data = try #require(
            folders.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("arvis.sqlite").path) })
        return data.appendingPathComponent("assets")
    }

    @Test func uploadsAreProcessedAndServedInBothFormats() async throws {
        try await withServer(live: true) { client in
            let headers = try await signIn(client, "olga")
            try await createProject(client, headers, name: "Shop")
            let cube = Self.cubeGLB
            let created = try await upload(client, headers, name: "Cube", bytes: cube)
            #expect(created.status == .created)
            let uploaded = try decode(Components.Schemas.Asset.self, created)
            let id = uploaded.id
            #expect(uploaded.status == .processing)
            let asset = try await processed(client, headers, id: id)
            #expect(asset.status == .ready)
            let summary = try #require(asset.summary)
            #expect(summary.triangles == 12)
            #expect(summary.bounds?.size == [1, 1, 1])
            // The upload byte for byte, and its USDZ made once.
            let glb = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(id)/model.glb", method: .get, headers: headers)
            #expect(glb.status == .ok && Array(glb.body.readableBytesView) == cube)
            #expect(glb.headers[.contentType] == "model/gltf-binary")
            let usdz = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(id)/model.usdz", method: .get, headers: headers)
            #expect(usdz.status == .ok)
            let model = try ModelFile.read(Array(usdz.body.readableBytesView))
            #expect(model.drawnTriangleCount == 12 && model.textures.count == 1)
            for size in [360, 1024] {
                let png = try await client.execute(
                    uri: "/api/v1/projects/shop/assets/\(id)/thumbnail.png?size=\(size)", method: .get, headers: headers
                )
                #expect(png.status == .ok && png.headers[.contentType] == "image/png")
                let bytes = Array(png.body.readableBytesView)
                #expect(
                    bytes.count > 24
                        && Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19]) == size)
            }
            let badSize = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(id)/thumbnail.png?size=99", method: .get, headers: headers)
            #expect(badSize.status == .badRequest)
            // A made file lost (a crash before it reached the disk) is made again on the next request for it.
            let hash = asset.contentHash
            let made = try assetFolder().appendingPathComponent("\(hash.prefix(2))/\(hash).usdz")
            try FileManager.default.removeItem(at: made)
            let missing = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(id)/model.usdz", method: .get, headers: headers)
            #expect(missing.status == .conflict)
            var again = HTTPResponse.Status.conflict
            for _ in 0..<600 where again == .conflict {
                try await Task.sleep(for: .milliseconds(100))
                again = try await client.execute(
                    uri: "/api/v1/projects/shop/assets/\(id)/model.usdz", method: .get, headers: headers
                ).status
            }
            #expect(again == .ok)
        }
    }

    @Test func downloadsHonourETagsAndRanges() async throws {
        try await withServer(live: true) { client in
            let headers = try await signIn(client, "olga")
            try await createProject(client, headers, name: "Shop")
            let cube = Self.cubeGLB
            let id = try assetID(try await upload(client, headers, name: "Cube", bytes: cube))
            let path = "/api/v1/projects/shop/assets/\(id)/model.glb"
            let whole = try await client.execute(uri: path, method: .get, headers: headers)
            let tag = try #require(whole.headers[.eTag])
            #expect(whole.headers[.acceptRanges] == "bytes")
            var conditional = headers
            conditional[.ifNoneMatch] = tag
            #expect(try await client.execute(uri: path, method: .get, headers: conditional).status == .notModified)
            for (range, expected) in [
                ("bytes=0-3", 0...3), ("bytes=10-", 10...(cube.count - 1)),
                ("bytes=-4", (cube.count - 4)...(cube.count - 1)),
                ("bytes=5-999999999", 5...(cube.count - 1)),
            ] {
                var ranged = headers
                ranged[.range] = range
                let part = try await client.execute(uri: path, method: .get, headers: ranged)
                #expect(part.status == .partialContent, "\(range)")
                #expect(Array(part.body.readableBytesView) == Array(cube[expected]), "\(range)")
                #expect(
                    part.headers[.contentRange] == "bytes \(expected.lowerBound)-\(expected.upperBound)/\(cube.count)")
            }
            for range in ["bytes=\(cube.count)-", "bytes=0-1,4-5", "bytes=9-2", "items=0-1"] {
                var ranged = headers
                ranged[.range] = range
                let refused = try await client.execute(uri: path, method: .get, headers: ranged)
                #expect(refused.status == .rangeNotSatisfiable, "\(range)")
                #expect(refused.headers[.contentRange] == "bytes */\(cube.count)")
            }
        }
    }

    @Test func galleriesListRenameTrashAndRestore() async throws {
        try await withServer(live: true) { client in
            let headers = try await signIn(client, "olga")
            try await createProject(client, headers, name: "Shop")
            var ids: [String] = []
            for name in ["chair", "Bench", "table"] {
                ids.append(
                    try assetID(try await upload(client, headers, name: name, bytes: Self.cubeGLB))
                )
                try await Task.sleep(for: .milliseconds(20))
            }
            func names(_ query: String) async throws -> [String] {
                let list = try decode(
                    Operations.ListAssets.Output.Ok.Body.JsonPayload.self,
                    try await client.execute(
                        uri: "/api/v1/projects/shop/assets\(query)", method: .get, headers: headers))
                return list.assets.map(\.name)
            }
            #expect(try await names("") == ["Bench", "chair", "table"])
            #expect(try await names("?sort=date") == ["table", "Bench", "chair"])
            let renamed = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(ids[0])", method: .patch, headers: headers,
                body: try json(["name": "  Armchair "]))
            #expect(try decode(Components.Schemas.Asset.self, renamed).name == "Armchair")
            let blank = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(ids[0])", method: .patch, headers: headers,
                body: try json(["name": "  "]))
            #expect(blank.status == .unprocessableContent)
            // Deleting by id removes that asset, whatever the sort (the 3D Object Viewer deleted the wrong row).
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/shop/assets/\(ids[1])", method: .delete, headers: headers
                ).status == .noContent)
            #expect(try await names("") == ["Armchair", "table"])
            #expect(try await names("?trashed=true") == ["Bench"])
            #expect(
                try await client.execute(uri: "/api/v1/projects/shop/assets/\(ids[1])", method: .get, headers: headers)
                    .status == .notFound)
            let restored = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(ids[1])/restore", method: .post, headers: headers)
            #expect(restored.status == .ok)
            #expect(try await names("") == ["Armchair", "Bench", "table"])
        }
    }

    @Test func badUploadsAreRefused() async throws {
        try await withServer(maximumAssetBytes: 2_000, live: true) { client in
            let headers = try await signIn(client, "olga")
            try await createProject(client, headers, name: "Shop")
            #expect(
                try await upload(client, headers, name: "Big", bytes: [UInt8](repeating: 7, count: 5_000)).status
                    == .contentTooLarge)
            let text = try await upload(client, headers, name: "Text", bytes: Array("not a model at all".utf8))
            #expect(text.status == .unsupportedMediaType)
            var noName = headers
            noName[.contentType] = "model/gltf-binary"
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/shop/assets", method: .post, headers: noName,
                    body: ByteBuffer(bytes: Self.cubeGLB)
                ).status == .badRequest)
            var bare = headers
            bare[.contentType] = ";"
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/shop/assets?name=bare", method: .post, headers: bare,
                    body: ByteBuffer(bytes: Self.cubeGLB)
                ).status == .created, "a Content-Type without a type counts as none")
            var wrongType = headers
            wrongType[.contentType] = "image/png"
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/shop/assets?name=x", method: .post, headers: wrongType,
                    body: ByteBuffer(bytes: Self.cubeGLB)
                ).status == .unsupportedMediaType)
            // A GLB whose JSON is broken is stored, then marked failed with the reason; its USDZ answers 409.
            var broken =
                Array("glTF".utf8) + [2, 0, 0, 0, 28, 0, 0, 0, 8, 0, 0, 0] + Array("JSON".utf8) + Array("{nope}  ".utf8)
            broken[8] = UInt8(broken.count)
            let id = try assetID(try await upload(client, headers, name: "Broken", bytes: broken))
            let asset = try await processed(client, headers, id: id)
            #expect(asset.status == .failed)
            #expect(asset.failure?.contains("glTF") == true)
            let usdz = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(id)/model.usdz", method: .get, headers: headers)
            #expect(usdz.status == .conflict)
            #expect(try errorCode(usdz) == "notReadable")
            // Nothing is left half-written in the incoming folder.
            let incoming = try assetFolder().appendingPathComponent("incoming")
            #expect(try FileManager.default.contentsOfDirectory(atPath: incoming.path).isEmpty)
        }
    }

    @Test func theViewerPageAndScript() async throws {
        try await withServer(live: true) { client in
            let headers = try await signIn(client, "olga")
            try await createProject(client, headers, name: "Shop", visibility: "unlisted")
            let id = try assetID(try await upload(client, headers, name: "%3CCube%3E", bytes: Self.cubeGLB))
            _ = try await processed(client, headers, id: id)
            let page = try await client.execute(uri: "/a/shop/\(id)", method: .get)
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("&lt;Cube&gt;") && !html.contains("<Cube>"))
            #expect(html.contains(#"rel="ar" href="/api/v1/projects/shop/assets/\#(id)/model.usdz""#))
            #expect(
                html.contains("scene-viewer") && html.contains(#"<script type="module" src="/viewer.js"></script>"#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            let script = try await client.execute(uri: "/viewer.js", method: .get)
            #expect(script.status == .ok && script.headers[.contentType]?.hasPrefix("text/javascript") == true)
        }
    }

    @Test func sceneUSDZsCarryTheirGalleryModels() async throws {
        try await withServer(live: true) { client in
            let headers = try await signIn(client, "olga")
            try await createProject(client, headers, name: "Shop", visibility: "unlisted")
            let id = try assetID(try await upload(client, headers, name: "Cube", bytes: Self.cubeGLB))
            _ = try await processed(client, headers, id: id)
            let spec = """
                {"imageTrackingConfigurations": [{"imageURL": "https://example.org/poster.jpg", "relationships": []}],
                 "placements": [{"model": "/api/v1/projects/shop/assets/\(id)/model.glb", "position": [0, 0, 1]}]}
                """
            let saved = try await client.execute(
                uri: "/api/v1/projects/shop/specs/room", method: .put, headers: headers, body: ByteBuffer(string: spec))
            #expect(saved.status == .created, "\(String(buffer: saved.body))")
            let usdz = try await client.execute(uri: "/s/shop/room/scene.usdz", method: .get)
            #expect(usdz.status == .ok && usdz.headers[.contentType] == "model/vnd.usdz+zip")
            let scene = try ModelFile.read(Array(usdz.body.readableBytesView))
            // The target's quad (2 triangles) and the cube (12).
            #expect(scene.drawnTriangleCount == 14)
            let page = String(buffer: try await client.execute(uri: "/s/shop/room", method: .get).body)
            #expect(page.contains(#"rel="ar" href="/s/shop/room/scene.usdz""#) && page.contains("scene-viewer"))

            // A model uploaded as USDZ is placed from its GLB conversion (whose bytes are not the upload's).
            let converted = try await client.execute(
                uri: "/api/v1/projects/shop/assets/\(id)/model.usdz", method: .get, headers: headers)
            let usdzID = try assetID(
                try await upload(client, headers, name: "CubeUSDZ", bytes: Array(converted.body.readableBytesView)))
            _ = try await processed(client, headers, id: usdzID)
            let placed = spec.replacingOccurrences(of: id, with: usdzID)
            _ = try await client.execute(
                uri: "/api/v1/projects/shop/specs/room2", method: .put, headers: headers,
                body: ByteBuffer(string: placed))
            let second = try await client.execute(uri: "/s/shop/room2/scene.usdz", method: .get)
            #expect(try ModelFile.read(Array(second.body.readableBytesView)).drawnTriangleCount == 14)
        }
    }
}
