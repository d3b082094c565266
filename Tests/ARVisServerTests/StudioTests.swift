import ARVisClient
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ARVisServer

/// ARVis Studio's side of the server: its page and files, the previews of unsaved specs, the
/// schema it completes from, areas as GeoJSON, and the phone page that follows saves.
struct StudioTests: ServerTesting {
    let scratch = ScratchFolder("server-studio")

    @Test func thePageAndItsFilesComeFromTheServerOnly() async throws {
        try await withServer { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(
                policy.contains("script-src 'self';") && policy.contains("connect-src 'self';")
                    && policy.contains("frame-ancestors 'none'"))
            #expect(
                policy.contains("img-src 'self' data: blob: https://tile.openstreetmap.org;"),
                "the map's tiles, and nothing else from outside")
            let html = String(buffer: page.body)
            #expect(
                html.contains("<script type=\"module\" src=\"/studio/app.js\"></script>"),
                "one module, which imports the rest")
            for module in [
                "/studio/specs/editor.js", "/studio/code/code-editor.js", "/studio/planting/planting.js",
                "/studio/rooms/rooms.js",
            ] {
                let served = try await client.execute(uri: module, method: .get)
                #expect(
                    served.status == .ok && served.headers[.contentType] == "text/javascript; charset=utf-8",
                    "\(module)")
            }
            #expect(
                !html.contains("http://") && !html.contains("<script>"),
                "no inline script, nothing fetched from elsewhere")
            let css = try await client.execute(uri: "/studio/style.css", method: .get)
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.execute(uri: "/studio/nothing.js", method: .get).status == .notFound)
        }
    }

    @Test func everyServedFileIsItsSource() async throws {
        try await withServer { client in
            let folder = Corpus.packageRoot.appendingPathComponent("Sources/ARVisServer/Web/Files")
            let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
                var directory: ObjCBool = false
                return FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(path).path, isDirectory: &directory) && !directory.boolValue
            }.sorted()
            #expect(paths.count >= 10)
            #expect(
                WebFile.all.map(\.path) == paths.map { "/" + $0 }, "every file of Web/Files is served, and nothing else"
            )
            for path in paths {
                let response = try await client.execute(uri: "/" + path, method: .get)
                let source = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                #expect(response.status == .ok, "\(path)")
                #expect(String(buffer: response.body) == source, "\(path) is served as it is in Web/Files")
                let etag = try #require(response.headers[.eTag])
                #expect(
                    try await client.execute(uri: "/" + path, method: .get, headers: [.ifNoneMatch: etag]).status
                        == .notModified)
            }
        }
    }

    @Test func noMapTilesMeansNoOutsideOrigin() async throws {
        #expect(!StudioPage(mapTiles: nil).policy.contains("openstreetmap"))
        #expect(
            StudioPage(mapTiles: "https://tiles.example.org:8443/{z}/{x}/{y}.png").policy.contains(
                "img-src 'self' data: blob: https://tiles.example.org:8443;"))
        #expect(!StudioPage(mapTiles: "https://evil.example;script-src *;/{z}/{x}/{y}").policy.contains("script-src *"))
        #expect(StudioPage(mapTiles: nil).html.contains("<meta name=\"arvis-map-tiles\" content=\"\">"))
    }

    @Test func previewsGiveLocatedDiagnosticsThenDrawings() async throws {
        try await withServer { client in
            let headers = try await signIn(client, "ana")
            var typo = String(buffer: try example("laptop-benchmark-bar-chart.json"))
            typo = typo.replacingOccurrences(of: "\"BarMark\"", with: "\"BarMak\"")
            let invalid = try await client.execute(
                uri: "/api/v1/preview?name=chart", method: .post, headers: headers, body: ByteBuffer(string: typo))
            #expect(invalid.status == .ok)
            let refused = try decode(Components.Schemas.Preview.self, invalid)
            let first = try #require(refused.diagnostics.first)
            #expect(first.line == 25 && first.column == 15 && first.file == "chart")
            #expect(first.hint?.contains("'BarMark'") == true)
            #expect(refused.preview == nil)

            let valid = try await client.execute(
                uri: "/api/v1/preview", method: .post, headers: headers,
                body: try example("two-targets-environment.json"))
            let body = try decode(Components.Schemas.Preview.self, valid)
            #expect(body.kind == .environment)
            let preview = try #require(body.preview)
            #expect(preview.widgets.count == 5)
            let html = try #require(preview.widgets.first?.html)
            let widget = try await client.execute(uri: html, method: .get)
            #expect(widget.status == .ok && String(buffer: widget.body).contains("<svg"))
            #expect(widget.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'self'") == true)
            let scene = try #require(preview.scene)
            let viewer = try await client.execute(uri: scene, method: .get)
            #expect(viewer.status == .ok && String(buffer: viewer.body).contains("data-model=\"\(scene).glb\""))
            let glb = try await client.execute(uri: scene + ".glb", method: .get)
            #expect(glb.status == .ok && Array(glb.body.readableBytesView.prefix(4)) == Array("glTF".utf8))

            let yaml = try await client.execute(
                uri: "/api/v1/preview", method: .post, headers: with(headers, contentType: "application/yaml"),
                body: try example("museum-label.yaml"))
            let component = try decode(Components.Schemas.Preview.self, yaml)
            #expect(component.kind == .component)
            #expect(component.preview != nil && component.preview?.scene == nil)
            #expect(String(buffer: yaml.body).contains("\"scene\":null"), "a component's scene is null, not absent")
        }
    }

    @Test func previewsNeedAnAccountAndKeepTheirLimits() async throws {
        try await withServer(maximumSpecBytes: 1_000) { client in
            #expect(
                try await client.execute(uri: "/api/v1/preview", method: .post, body: ByteBuffer(string: "{}")).status
                    == .unauthorized)
            let headers = try await signIn(client, "ana")
            let large = ByteBuffer(string: "{\"components\": [" + String(repeating: " ", count: 2_000) + "]}")
            #expect(
                try await client.execute(uri: "/api/v1/preview", method: .post, headers: headers, body: large).status
                    == .contentTooLarge)
            let text = try await client.execute(
                uri: "/api/v1/preview", method: .post, headers: with(headers, contentType: "text/plain"),
                body: ByteBuffer(string: "{}"))
            #expect(text.status == .unsupportedMediaType)
            let hex = String(repeating: "ab", count: 32)
            #expect(try await client.execute(uri: "/preview/\(hex)/widgets/1.svg", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/preview/../../etc/passwd/scene", method: .get).status == .notFound)
        }
    }

    @Test func theSchemaTheEditorCompletesFrom() async throws {
        try await withServer { client in
            let schema = try await client.execute(uri: "/schema.json", method: .get)
            #expect(schema.status == .ok)
            let root = try object(schema)
            let definitions = try #require(root["$defs"] as? [String: Any])
            #expect(definitions["Environment"] != nil && definitions["Component"] != nil && definitions["Chart"] != nil)
        }
    }

    @Test func areasAsTheyWereSent() async throws {
        try await withServer { client in
            let headers = try await signIn(client, "ana")
            let slug = try await createProject(client, headers, name: "Forest")
            let area =
                #"{"type": "Polygon", "coordinates": [[[-9.1, 38.7], [-9.099, 38.7], [-9.099, 38.701], [-9.1, 38.701], [-9.1, 38.7]]]}"#
            let created = try await client.execute(
                uri: "/api/v1/projects/\(slug)/areas", method: .post,
                headers: with(headers, contentType: "application/json"),
                body: ByteBuffer(string: #"{"name": "North", "area": \#(area)}"#))
            #expect(created.status == .created)
            let id = try areaID(created)
            let geojson = try await client.execute(
                uri: "/api/v1/projects/\(slug)/areas/\(id)/geojson", method: .get, headers: headers)
            #expect(geojson.status == .ok)
            let body = try object(geojson)
            #expect((body["area"] as? [String: Any])?["type"] as? String == "Polygon")
            #expect(body["exclusions"] is NSNull)
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/areas/\(id)/geojson", method: .get).status
                    == .notFound, "a private project's area")
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/areas/\(UUID().uuidString.lowercased())/geojson", method: .get,
                    headers: headers
                ).status == .notFound)
        }
    }

    @Test func thePhonePageFollowsSavesWithItsOwnScriptOnly() async throws {
        try await withServer { client in
            let (headers, slug) = try await projectWithExample(
                client, "two-targets-environment.json", as: "tour", user: "ana", project: "Museum",
                visibility: "unlisted")
            let page = try await client.execute(uri: "/s/\(slug)/tour", method: .get)
            let html = String(buffer: page.body)
            #expect(
                html.contains("data-live=\"/live/\(slug)/tour\" data-version=\"1\"")
                    && html.contains("<script type=\"module\" src=\"/hub.js\"></script>"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'; connect-src 'self';") == true)
            // The same content saved again is a new version: the page says so (it is not the cached version 1).
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: headers,
                body: try example("laptop-benchmark-bar-chart.json"))
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: headers,
                body: try example("two-targets-environment.json"))
            let third = String(buffer: try await client.execute(uri: "/s/\(slug)/tour", method: .get).body)
            #expect(third.contains("data-version=\"3\"") && third.contains("version 3"))
        }
    }

    private func with(_ headers: HTTPFields, contentType: String) -> HTTPFields {
        var headers = headers
        headers[.contentType] = contentType
        return headers
    }
}
