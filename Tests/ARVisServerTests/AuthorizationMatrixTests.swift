import ARVisServer
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Every route × every kind of caller against the status expected, from one table: no caller gets
/// a `2xx` the table does not grant.
struct AuthorizationMatrixTests: ServerTesting {
    let scratch = ScratchFolder("server-authorization")

    /// Who calls.
    enum Caller: Int, CaseIterable, Sendable {
        case anonymous, viewer, editor, owner, stranger, revoked

        var username: String? {
            switch self {
            case .anonymous: nil
            case .viewer: "vera"
            case .editor: "eddy"
            case .owner: "olga"
            case .stranger: "otto"
            case .revoked: "rita"
            }
        }
    }

    /// One route, the project's visibility, and the status each ``Caller`` gets, in their order.
    struct Route: Sendable, CustomTestStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        /// The request body; `GLB` stands for a small model's bytes.
        var body: String?
        var visibility = "private"
        var expected: [Int]

        var testDescription: String { "\(method) \(path) (\(visibility))" }
    }

    private static let spec = "/api/v1/projects/garden/specs/tour"
    private static let read = [404, 200, 200, 200, 404, 401]
    private static let publicRead = [200, 200, 200, 200, 200, 401]
    private static let signedIn = [401, 200, 200, 200, 200, 401]

    static let routes: [Route] = [
        Route(method: .get, path: "/api/v1/accounts/current", expected: signedIn),
        Route(method: .get, path: "/api/v1/projects", expected: signedIn),
        Route(
            method: .post, path: "/api/v1/projects", body: #"{"name": "Mine", "visibility": "private"}"#,
            expected: [401, 201, 201, 201, 201, 401]),
        Route(method: .delete, path: "/api/v1/sessions/current", expected: [401, 204, 204, 204, 204, 401]),
        Route(method: .get, path: "/api/v1/projects/garden", expected: read),
        Route(method: .get, path: "/api/v1/projects/garden", visibility: "public", expected: publicRead),
        Route(
            method: .patch, path: "/api/v1/projects/garden", body: #"{"name": "Renamed"}"#,
            expected: [401, 403, 200, 200, 404, 401]),
        Route(
            method: .patch, path: "/api/v1/projects/garden", body: #"{"name": "Renamed"}"#, visibility: "public",
            expected: [401, 403, 200, 200, 403, 401]),
        Route(
            method: .patch, path: "/api/v1/projects/garden", body: #"{"visibility": "public"}"#,
            expected: [401, 403, 403, 200, 404, 401]),
        Route(method: .delete, path: "/api/v1/projects/garden", expected: [401, 403, 403, 204, 404, 401]),
        Route(method: .post, path: "/api/v1/projects/garden/restore", expected: [401, 403, 403, 200, 404, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/members", expected: [401, 200, 200, 200, 404, 401]),
        Route(
            method: .put, path: "/api/v1/projects/garden/members/otto", body: #"{"role": "viewer"}"#,
            expected: [401, 403, 403, 200, 404, 401]),
        Route(method: .delete, path: "/api/v1/projects/garden/members/vera", expected: [401, 204, 403, 204, 404, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/specs", expected: read),
        Route(method: .get, path: spec, expected: read),
        Route(method: .get, path: spec, visibility: "unlisted", expected: publicRead),
        Route(
            method: .put, path: spec, body: #"{"text": {"content": "Hi"}}"#, expected: [401, 403, 200, 200, 404, 401]),
        Route(
            method: .put, path: spec, body: #"{"text": {"content": "Hi"}}"#, visibility: "public",
            expected: [401, 403, 200, 200, 403, 401]),
        Route(method: .delete, path: spec, expected: [401, 403, 204, 204, 404, 401]),
        Route(method: .get, path: spec + "/versions", expected: read),
        Route(method: .get, path: spec + "/versions/1", expected: read),
        Route(method: .post, path: spec + "/versions/1/restore", expected: [401, 403, 201, 201, 404, 401]),
        Route(method: .get, path: "/s/garden/tour.json", expected: read),
        Route(method: .get, path: "/s/garden/tour.json", visibility: "unlisted", expected: publicRead),
        Route(method: .get, path: "/s/garden/tour", expected: read),
        Route(method: .get, path: "/s/garden/tour/widgets/1.svg", expected: read),
        Route(method: .get, path: "/s/garden/tour/scene.json", expected: read),
        Route(method: .get, path: "/s/garden/tour/qr.svg", expected: read),
        Route(method: .get, path: "/s/garden/tour/qr.svg", visibility: "public", expected: publicRead),
        Route(method: .get, path: "/api/v1/species?q=pinus", expected: [200, 200, 200, 200, 200, 200]),
        Route(method: .get, path: "/api/v1/projects/garden/areas", expected: read),
        Route(
            method: .post, path: "/api/v1/projects/garden/areas", body: area, expected: [401, 403, 201, 201, 404, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/plans", expected: read),
        Route(method: .get, path: "/api/v1/projects/garden/trees", expected: read),
        Route(
            method: .post, path: "/api/v1/projects/garden/trees",
            body: #"{"species": "Pinus pinea", "position": {"x": 1, "z": 2}}"#,
            expected: [401, 403, 201, 201, 404, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/trees",
            body: #"{"species": "Pinus pinea", "position": {"x": 1, "z": 2}}"#,
            visibility: "public", expected: [401, 403, 201, 201, 403, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/trees/groups",
            body: #"{"species": "Pinus pinea", "position": {"x": 1, "z": 2}, "count": 3, "session": "s1"}"#,
            visibility: "public", expected: [401, 403, 201, 201, 403, 401]),
        Route(
            method: .delete, path: "/api/v1/projects/garden/trees/sessions/s1",
            expected: [401, 403, 404, 404, 404, 401]),
        Route(method: .delete, path: "/api/v1/projects/garden/trees", expected: [401, 403, 403, 200, 404, 401]),
        Route(method: .delete, path: "/api/v1/projects/garden/bubbles", expected: [401, 403, 403, 200, 404, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/anchors", expected: read),
        Route(
            method: .post, path: "/api/v1/projects/garden/anchors",
            body: #"{"pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}}"#,
            expected: [401, 403, 201, 201, 404, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/annotations", expected: read),
        Route(method: .get, path: "/api/v1/projects/garden/datasets", expected: read),
        Route(method: .get, path: "/api/v1/projects/garden/datasets/sensor/rows", expected: read),
        Route(
            method: .post, path: "/api/v1/projects/garden/datasets/sensor/rows", body: #"{"celsius": 21.5}"#,
            expected: [401, 403, 201, 201, 404, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/datasets/sensor/rows", body: #"{"celsius": 21.5}"#,
            visibility: "public",
            expected: [401, 403, 201, 201, 403, 401]),
        Route(
            method: .delete, path: "/api/v1/projects/garden/datasets/sensor", expected: [401, 403, 404, 404, 404, 401]),
        // Rooms are for members, and only as WebSockets (426 to a plain GET that may join).
        Route(method: .get, path: "/live/garden/rooms/visit", expected: [401, 426, 426, 426, 404, 401]),
        Route(method: .get, path: "/live/garden/rooms/visit?role=publisher", expected: [401, 403, 426, 426, 404, 401]),
        Route(
            method: .get, path: "/live/garden/rooms/visit", visibility: "public",
            expected: [401, 426, 426, 426, 403, 401]),
        // Room links are the owners'.
        Route(
            method: .get, path: "/api/v1/projects/garden/rooms/visit/links", expected: [401, 403, 403, 200, 404, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/rooms/visit/links", body: "{}",
            expected: [401, 403, 403, 201, 404, 401]),
        Route(
            method: .delete, path: "/api/v1/projects/garden/rooms/visit/links/00000000-0000-0000-0000-000000000000",
            expected: [401, 403, 403, 404, 404, 401]),
        // The gallery: `{asset}` is the id of the cube the owner uploaded.
        Route(method: .get, path: "/api/v1/projects/garden/assets", expected: read),
        Route(
            method: .get, path: "/api/v1/projects/garden/assets?trashed=true", expected: [401, 200, 200, 200, 404, 401]),
        Route(
            method: .get, path: "/api/v1/projects/garden/assets?trashed=true", visibility: "public",
            expected: [401, 200, 200, 200, 403, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/assets?name=Cube", body: "GLB",
            expected: [401, 403, 201, 201, 404, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/assets?name=Cube", body: "GLB", visibility: "public",
            expected: [401, 403, 201, 201, 403, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/assets/{asset}", expected: read),
        Route(
            method: .get, path: "/api/v1/projects/garden/assets/{asset}", visibility: "unlisted", expected: publicRead),
        Route(
            method: .patch, path: "/api/v1/projects/garden/assets/{asset}", body: #"{"name": "Box"}"#,
            expected: [401, 403, 200, 200, 404, 401]),
        Route(
            method: .delete, path: "/api/v1/projects/garden/assets/{asset}", expected: [401, 403, 204, 204, 404, 401]),
        Route(
            method: .post, path: "/api/v1/projects/garden/assets/{asset}/restore",
            expected: [401, 403, 404, 404, 404, 401]),
        Route(method: .get, path: "/api/v1/projects/garden/assets/{asset}/model.glb", expected: read),
        Route(
            method: .get, path: "/api/v1/projects/garden/assets/{asset}/model.glb", visibility: "public",
            expected: publicRead),
        Route(method: .get, path: "/a/garden/{asset}", expected: read),
        Route(method: .get, path: "/a/garden/{asset}", visibility: "unlisted", expected: publicRead),
        // ARVis Studio: previews are for accounts (no project is read); an area's GeoJSON reads like the area.
        Route(method: .post, path: "/api/v1/preview", body: #"{"text": {"content": "Hi"}}"#, expected: signedIn),
        Route(method: .get, path: "/", expected: [200, 200, 200, 200, 200, 200]),
        Route(method: .get, path: "/schema.json", expected: [200, 200, 200, 200, 200, 200]),
    ]

    private static let area =
        #"{"name": "Plot", "area": {"type": "Polygon", "coordinates": [[[-8.81, 39.74], [-8.809, 39.74], [-8.809, 39.741], [-8.81, 39.74]]]}}"#

    @Test(arguments: routes) func everyCallerGetsWhatTheTableSays(_ route: Route) async throws {
        for caller in Caller.allCases {
            try await withServer { client in
                let (headers, asset) = try await prepare(
                    client, visibility: route.visibility,
                    withAsset: route.path.contains("assets") || route.path.contains("{asset}"))
                var request = headers[caller.rawValue]
                if let body = route.body {
                    request[.contentType] = body == "GLB" ? "model/gltf-binary" : "application/json"
                }
                let body = route.body.map { $0 == "GLB" ? ByteBuffer(bytes: Self.cubeGLB) : ByteBuffer(string: $0) }
                let response = try await client.execute(
                    uri: route.path.replacingOccurrences(of: "{asset}", with: asset), method: route.method,
                    headers: request, body: body)
                #expect(
                    response.status.code == route.expected[caller.rawValue],
                    "\(caller) got \(response.status.code): \(String(buffer: response.body))")
            }
        }
    }

    /// The project `garden` (owner olga, editor eddy, viewer vera) with the spec `tour` and a model;
    /// otto has an account and no role; rita signed out. Returns each caller's headers and the
    /// model's asset id.
    private func prepare(_ client: any TestClientProtocol, visibility: String, withAsset: Bool) async throws -> (
        [HTTPFields], String
    ) {
        var headers: [HTTPFields] = []
        for caller in Caller.allCases {
            guard let name = caller.username else {
                headers.append([:])
                continue
            }
            var fields = try await signIn(client, name)
            fields[.contentType] = nil
            headers.append(fields)
        }
        let owner = headers[Caller.owner.rawValue]
        var json = owner
        json[.contentType] = "application/json"
        let project = try await client.execute(
            uri: "/api/v1/projects", method: .post, headers: json,
            body: try self.json(["name": "Garden", "visibility": visibility]))
        #expect(project.status == .created)
        for (name, role) in [("eddy", "editor"), ("vera", "viewer")] {
            let member = try await client.execute(
                uri: "/api/v1/projects/garden/members/\(name)", method: .put, headers: json,
                body: try self.json(["role": role]))
            #expect(member.status == .ok)
        }
        let saved = try await client.execute(
            uri: Self.spec, method: .put, headers: owner, body: try example("two-targets-environment.json"))
        #expect(saved.status == .created)
        var id = ""
        if withAsset {
            var upload = owner
            upload[.contentType] = "model/gltf-binary"
            let asset = try await client.execute(
                uri: "/api/v1/projects/garden/assets?name=Cube", method: .post, headers: upload,
                body: ByteBuffer(bytes: Self.cubeGLB))
            #expect(asset.status == .created)
            id = try assetID(asset)
        }
        #expect(
            try await client.execute(
                uri: "/api/v1/sessions/current", method: .delete, headers: headers[Caller.revoked.rawValue]
            ).status == .noContent)
        return (headers, id)
    }
}
