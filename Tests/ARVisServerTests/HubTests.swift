import ARVisServer
import ARVisSpec
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The spec hub: what a device opens without an account.
struct HubTests: ServerTesting {
    let scratch = ScratchFolder("server-hub")

    /// An unlisted project `museum` holding the two-target environment as `tour` and the bar chart as `chart`.
    @Test func theProjectsMarkerIsAPictureAndAPageToPrint() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Hill (side)", visibility: "private")
            let png = try await client.execute(uri: "/s/\(slug)/marker.png", method: .get, headers: owner)
            #expect(png.status == .ok && png.headers[.contentType] == "image/png")
            let pdf = try await client.execute(uri: "/s/\(slug)/marker.pdf", method: .get, headers: owner)
            #expect(pdf.status == .ok && pdf.headers[.contentType] == "application/pdf")
            let text = String(decoding: pdf.body.readableBytesView, as: UTF8.self)
            #expect(text.hasPrefix("%PDF-1.4") && text.hasSuffix("%%EOF\n"))
            #expect(text.contains("(ARVis marker of the project Hill \\(side\\) \\(\(slug)\\))"), "the name is escaped")
            let stranger = try await signIn(client, "otto")
            #expect(
                try await client.execute(uri: "/s/\(slug)/marker.png", method: .get, headers: stranger).status
                    == .notFound)
        }
    }

    private func publish(
        _ client: any TestClientProtocol, visibility: String = "unlisted", projectName: String = "Museum"
    ) async throws -> String {
        let owner = try await signIn(client, "ana")
        let slug = try await createProject(client, owner, name: projectName, visibility: visibility)
        for (name, file) in [("tour", "two-targets-environment.json"), ("chart", "laptop-benchmark-bar-chart.json")] {
            let saved = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/\(name)", method: .put, headers: owner, body: try example(file))
            #expect(saved.status == .created)
        }
        return slug
    }

    @Test func theSpecAsIARVisLoadsIt() async throws {
        try await withServer { client in
            let slug = try await publish(client)
            let spec = try await client.execute(uri: "/s/\(slug)/tour.json", method: .get)
            #expect(spec.status == .ok)
            #expect(
                Data(spec.body.readableBytesView)
                    == (try Data(
                        contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/two-targets-environment.json")))
            )
            let etag = try #require(spec.headers[.eTag])
            #expect(
                try await client.execute(uri: "/s/\(slug)/tour.json", method: .get, headers: [.ifNoneMatch: etag])
                    .status == .notModified)
            #expect(try await client.execute(uri: "/s/\(slug)/nothing.json", method: .get).status == .notFound)
        }
    }

    @Test func widgetsInEveryFormat() async throws {
        try await withServer { client in
            let slug = try await publish(client)
            let svg = try await client.execute(uri: "/s/\(slug)/chart/widgets/1.svg", method: .get)
            #expect(svg.status == .ok)
            #expect(svg.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: svg.body).contains("<svg"))
            let png = try await client.execute(uri: "/s/\(slug)/chart/widgets/1.png?scale=1", method: .get)
            #expect(png.status == .ok)
            #expect(Array(png.body.readableBytesView.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let etag = try #require(png.headers[.eTag])
            #expect(
                try await client.execute(
                    uri: "/s/\(slug)/chart/widgets/1.png?scale=1", method: .get, headers: [.ifNoneMatch: etag]
                ).status == .notModified)
            let html = try await client.execute(uri: "/s/\(slug)/tour/widgets/3.html", method: .get)
            #expect(html.status == .ok)
            #expect(html.headers[.contentSecurityPolicy]?.contains("frame-ancestors") == true)
            #expect(html.headers[.xContentTypeOptions] == "nosniff")
            #expect(try await client.execute(uri: "/s/\(slug)/chart/widgets/2.svg", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/s/\(slug)/chart/widgets/1.gif", method: .get).status == .notFound)
            #expect(
                try await client.execute(uri: "/s/\(slug)/chart/widgets/1.png?scale=100", method: .get).status
                    == .unprocessableContent)
        }
    }

    @Test func scenesOfEnvironmentsOnly() async throws {
        try await withServer { client in
            let slug = try await publish(client)
            let json = try await client.execute(uri: "/s/\(slug)/tour/scene.json", method: .get)
            #expect(json.status == .ok)
            #expect(try JSONSerialization.jsonObject(with: Data(json.body.readableBytesView)) is [String: Any])
            let glb = try await client.execute(uri: "/s/\(slug)/tour/scene.glb", method: .get)
            #expect(glb.status == .ok)
            #expect(String(decoding: glb.body.readableBytesView.prefix(4), as: UTF8.self) == "glTF")
            let chart = try await client.execute(uri: "/s/\(slug)/chart/scene.json", method: .get)
            #expect(chart.status == .unprocessableContent)
            #expect(try errorCode(chart) == "notAnEnvironment")
        }
    }

    /// The AR view's files: widgets by scene id (the children links open too), the scene with
    /// links open as `arvis scene --open-links` lays it out, and the link's child in the widget page.
    @Test func widgetsBySceneIDAndTheChildrenTheirLinksOpen() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "unlisted")
            let detail = IARVisLink.percentEncoded(#"{"text": {"content": "**Details** here"}}"#)
            let spec = """
                {"worldAnchors": [{"id": "lobby", "position": [1, 0, -2], "relationships": [{"widgetConfiguration": {\
                "relativeAnchorPoint": "center", "relativePosition": [0, 0, 0],\
                "component": {"text": {"content": "Open [the details](iARVis://openComponent?json=\(detail))"}}}}]}]}
                """
            let saved = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/lobby", method: .put, headers: owner,
                body: ByteBuffer(string: spec))
            #expect(saved.status == .created)
            let closed = try await client.execute(uri: "/s/\(slug)/lobby/scene.json", method: .get)
            let opened = try await client.execute(uri: "/s/\(slug)/lobby/scene.json?links=open", method: .get)
            let closedIDs = try sceneIDs(closed)
            let openedIDs = try sceneIDs(opened)
            #expect(closedIDs == ["world-lobby", "world-lobby-widget1"])
            let child = try #require(openedIDs.last)
            #expect(openedIDs.count == 3 && child.hasPrefix("world-lobby-widget1-__text"))
            #expect(closed.headers[.eTag] != opened.headers[.eTag])
            #expect(
                try await client.execute(uri: "/s/\(slug)/lobby/scene.json?links=maybe", method: .get).status
                    == .badRequest)
            for id in ["world-lobby-widget1", child] {
                let png = try await client.execute(uri: "/s/\(slug)/lobby/widgets/\(id).png?scale=1", method: .get)
                #expect(png.status == .ok && png.headers[.contentType] == "image/png", "\(id)")
            }
            let page = String(
                buffer: try await client.execute(uri: "/s/\(slug)/lobby/widgets/world-lobby-widget1.html", method: .get)
                    .body)
            #expect(page.contains("data-child=\"\(child.dropFirst("world-lobby-widget1-".count))\""))
            for bad in ["nothing-here.png", "-lead.png", "a%2Fb.png", String(repeating: "w", count: 201) + ".png"] {
                #expect(
                    try await client.execute(uri: "/s/\(slug)/lobby/widgets/\(bad)", method: .get).status == .notFound,
                    "\(bad)")
            }
        }
    }

    /// A chart that follows a dataset is drawn with its live rows when asked (`?rows=live`), as a
    /// device appends them; a new row is a new picture.
    @Test func widgetsDrawnWithTheirDatasetsLiveRows() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Hall", visibility: "unlisted")
            let spec = """
                {"worldAnchors": [{"id": "hall", "position": [0, 0, -2], "relationships": [{"widgetConfiguration": {\
                "relativeAnchorPoint": "center", "relativePosition": [0, 0, 0], "component": {"chart": {\
                "dataSources": [{"label": "default", "data": {"time": [], "celsius": []}, "dataset": {"name": "hall-sensor", "rows": 3}}],\
                "components": [{"type": "LineMark", "config": {"x": {"field": "time"}, "y": {"field": "celsius"}}}]}}}}]}]}
                """
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/specs/hall", method: .put, headers: owner,
                    body: ByteBuffer(string: spec)
                ).status == .created)
            var csv = owner
            csv[.contentType] = "text/csv"
            let append = { (rows: String) in
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/datasets/hall-sensor/rows", method: .post, headers: csv,
                    body: ByteBuffer(string: "time,celsius\n" + rows))
            }
            #expect(try await append("10:00,20.5\n10:01,20.75\n").status == .created)
            let uri = "/s/\(slug)/hall/widgets/world-hall-widget1.svg"
            let asSaved = try await client.execute(uri: uri, method: .get)
            let live = try await client.execute(uri: uri + "?rows=live", method: .get)
            #expect(asSaved.status == .ok && live.status == .ok)
            // As saved the chart has no rows; live it draws the two appended (its axis shows 10:00).
            #expect(String(buffer: asSaved.body).contains("No data to plot"))
            #expect(
                !String(buffer: live.body).contains("No data to plot") && String(buffer: live.body).contains("10:00"))
            #expect(try await append("10:02,21\n").status == .created)
            let later = try await client.execute(uri: uri + "?rows=live", method: .get)
            #expect(
                String(buffer: later.body) != String(buffer: live.body) && later.headers[.eTag] != live.headers[.eTag])
            #expect(try await client.execute(uri: uri + "?rows=maybe", method: .get).status == .badRequest)
        }
    }

    private func sceneIDs(_ response: TestResponse) throws -> [String] {
        struct Scene: Decodable {
            struct Node: Decodable { var id: String }
            var nodes: [Node]
        }
        return try decode(Scene.self, response).nodes.map(\.id)
    }

    @Test func qrCodesAndThePhonePage() async throws {
        try await withServer { client in
            let slug = try await publish(client, projectName: "Museum <script>alert(1)</script>")
            let svg = try await client.execute(uri: "/s/\(slug)/tour/qr.svg", method: .get)
            #expect(svg.status == .ok)
            #expect(String(buffer: svg.body).hasPrefix("<svg"))
            let png = try await client.execute(uri: "/s/\(slug)/tour/qr.png?target=page", method: .get)
            #expect(png.headers[.contentType] == "image/png")
            #expect(try await client.execute(uri: "/s/\(slug)/tour/qr.gif", method: .get).status == .notFound)
            let page = try await client.execute(uri: "/s/\(slug)/tour", method: .get)
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("iARVis://openVisConfig?url="))
            #expect(html.contains("/s/\(slug)/tour/widgets/4.svg"), "every widget of the environment is on the page")
            #expect(!html.contains("<script>alert"), "the project's name is escaped")
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(page.headers[.contentSecurityPolicy]?.contains("frame-src 'self'") == true, "the AR panel")
            #expect(html.contains(#"<button type="button" id="ar-enter" class="primary" hidden>Enter AR</button>"#))
            #expect(html.contains(#"data-scene="/s/\#(slug)/tour/scene.json""#))
        }
    }

    /// The deep links of a spec: `openVisConfig?url=` always, and `openVisConfig?json=` (what today's
    /// iARVis app applies) for an environment small enough for a QR Code.
    @Test func bothDeepLinksWhereTheEnvironmentFitsAQRCode() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "unlisted")
            func environment(_ text: String) -> ByteBuffer {
                ByteBuffer(
                    string:
                        #"{"imageTrackingConfigurations": [{"imageURL": "https://a.example/p.jpg", "relationships": [{"widgetConfiguration": {"component": {"text": {"content": "\#(text)"}}, "relativeAnchorPoint": "top", "relativePosition": [0, 0, 0]}}]}]}"#
                )
            }
            for (name, body) in [
                ("tiny", environment("Hi")), ("long", environment(String(repeating: "words ", count: 500))),
                ("chart", try example("laptop-benchmark-bar-chart.json")),
            ] {
                #expect(
                    try await client.execute(
                        uri: "/api/v1/projects/\(slug)/specs/\(name)", method: .put, headers: owner, body: body
                    ).status == .created)
            }
            let page = String(buffer: try await client.execute(uri: "/s/\(slug)/tiny", method: .get).body)
            #expect(
                page.contains("iARVis://openVisConfig?url=http")
                    && page.contains("iARVis://openVisConfig?json=%7B%22imageTrackingConfigurations"))
            #expect(page.components(separatedBy: "<svg").count - 1 >= 2, "two QR Codes")
            let code = try await client.execute(uri: "/s/\(slug)/tiny/qr.svg?target=json", method: .get)
            #expect(code.status == .ok && String(buffer: code.body).hasPrefix("<svg"))
            #expect(
                try await client.execute(uri: "/s/\(slug)/chart/qr.svg?target=json", method: .get).status == .notFound,
                "a chart is not an environment")
            #expect(
                try await client.execute(uri: "/s/\(slug)/long/qr.svg?target=json", method: .get).status == .notFound,
                "too long for a QR Code")
            #expect(
                try await client.execute(uri: "/s/\(slug)/tiny/qr.svg?target=nope", method: .get).status == .badRequest)
            let long = String(buffer: try await client.execute(uri: "/s/\(slug)/long", method: .get).body)
            #expect(long.contains("openVisConfig?url=") && !long.contains("openVisConfig?json="))
        }
    }

    @Test func privateAndTrashedProjectsAreNotOnTheHub() async throws {
        try await withServer { client in
            let slug = try await publish(client, visibility: "private")
            #expect(try await client.execute(uri: "/s/\(slug)/tour.json", method: .get).status == .notFound)
            let owner = try await signIn(client, "bea")
            #expect(
                try await client.execute(uri: "/s/\(slug)/tour.json", method: .get, headers: owner).status == .notFound,
                "not a member")
        }
        try await withServer { client in
            let slug = try await publish(client, visibility: "public")
            #expect(try await client.execute(uri: "/s/\(slug)/tour.json", method: .get).status == .ok)
        }
    }
}
