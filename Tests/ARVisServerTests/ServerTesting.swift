import ARVisClient
import ARVisGraphics
import ARVisModel
import ARVisServer
import ARVisStore
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

/// The contract's schemas as the generated client has them, named apart from the server's own
/// generated types, which suites that `@testable import ARVisServer` also see.
typealias ClientSchemas = Components.Schemas

/// The contract's operations as the generated client has them (see ``ClientSchemas``).
typealias ClientOperations = Operations

/// How long the in-process servers keep an idle connection open. HummingbirdTesting's live client
/// holds one connection and does not open another when the server closes it, and on a loaded run a
/// test can go longer than the product's 30 seconds between two requests: its next request then
/// fails with "I/O on closed channel". Tests of idleness set their own.
let testIdleTimeout: TimeInterval = 600

/// What the server suites share: a server in process (HummingbirdTesting's router client) on a
/// fresh SQLite file per test, and JSON helpers.
protocol ServerTesting {
    var scratch: ScratchFolder { get }
}

extension ServerTesting {
    /// Runs `body` against a server with the minimum bcrypt cost and 3 sign-in attempts; `live`: on a
    /// real socket with its services running (the live streams need both).
    func withServer(
        maximumSpecBytes: Int = 5_000_000, allowedOrigins: Set<String> = [], maximumAssetBytes: Int = 200_000_000,
        live: Bool = false, metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(
            dataDirectory: try scratch.folder().path, passwordCost: 4, signInAttempts: 3,
            maximumSpecBytes: maximumSpecBytes, allowedOrigins: allowedOrigins, maximumAssetBytes: maximumAssetBytes)
        configuration.idleTimeout = testIdleTimeout
        configure(&configuration)
        let store = try await Store.open(sqliteAt: configuration.databasePath)
        do {
            let app = try ARVisServer.application(configuration, store: store, logger: .quiet, metrics: metrics)
            try await app.test(live ? .live : .router, body)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    func json(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    /// The body of `response` as `type`, one of the generated client's types: the shape
    /// `openapi.yaml` promises for the answer (dates in RFC 3339, with or without fractions).
    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
            return try Date.ISO8601FormatStyle().parse(text)
        }
        return try decoder.decode(T.self, from: Data(response.body.readableBytesView))
    }

    /// The body of `response` as a dictionary, for answers outside the contract's types.
    func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    static var jsonHeaders: HTTPFields { [.contentType: "application/json"] }

    /// Signs up and in through the generated client; returns the bearer header.
    func signIn(_ client: any TestClientProtocol, _ name: String) async throws -> HTTPFields {
        let api = apiClient(client)
        let credentials = Components.Schemas.Credentials(username: name, password: "correct horse battery")
        _ = try await api.signUp(body: .json(credentials)).created
        let token = try await api.signIn(body: .json(credentials)).created.body.json.token
        return [.contentType: "application/json", .authorization: "Bearer \(token)"]
    }

    /// Creates a project through the generated client; returns its slug.
    @discardableResult
    func createProject(
        _ client: any TestClientProtocol, _ headers: HTTPFields, name: String, visibility: String = "private"
    ) async throws -> String {
        let creation = Components.Schemas.ProjectCreation(
            name: name, visibility: try #require(Components.Schemas.Visibility(rawValue: visibility)))
        return try await apiClient(client, token: token(in: headers)).createProject(body: .json(creation)).created.body
            .json.slug
    }

    /// The bearer token of headers ``signIn(_:_:)`` made; empty when there is none.
    func token(in headers: HTTPFields) -> String {
        String(headers[.authorization]?.dropFirst("Bearer ".count) ?? "")
    }

    /// Signs `user` in and creates the project `name`; returns the generated client acting as the
    /// user, and the project's slug.
    func signedInClient(_ client: any TestClientProtocol, _ user: String, project name: String) async throws -> (
        api: Client, slug: String
    ) {
        let headers = try await signIn(client, user)
        let slug = try await createProject(client, headers, name: name)
        return (apiClient(client, token: token(in: headers)), slug)
    }

    /// Signs `user` in, creates a project and saves the example `file` in it as spec `name`.
    /// - Returns: the user's headers and the project's slug.
    func projectWithExample(
        _ client: any TestClientProtocol, _ file: String, as name: String, user: String, project: String,
        visibility: String
    ) async throws -> (headers: HTTPFields, slug: String) {
        let headers = try await signIn(client, user)
        let slug = try await createProject(client, headers, name: project, visibility: visibility)
        let saved = try await client.execute(
            uri: "/api/v1/projects/\(slug)/specs/\(name)", method: .put, headers: headers, body: try example(file))
        #expect(saved.status == .created)
        return (headers, slug)
    }

    /// Polls an asset until it is no longer processing; returns it.
    func processed(_ client: any TestClientProtocol, _ headers: HTTPFields, project: String = "shop", id: String)
        async throws -> Components.Schemas.Asset
    {
        for _ in 0..<1200 {
            let asset = try decode(
                Components.Schemas.Asset.self,
                try await client.execute(
                    uri: "/api/v1/projects/\(project)/assets/\(id)", method: .get, headers: headers))
            if asset.status != .processing { return asset }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CancellationError()  // recorded by the caller's test as a thrown error
    }

    /// Why processing `asset` failed; `nil` when it did not fail.
    func failure(of asset: Components.Schemas.Asset) -> String? {
        asset.status == .failed ? asset.failure ?? "" : nil
    }

    /// The slug of a created project.
    func projectSlug(_ response: TestResponse) throws -> String {
        try decode(Components.Schemas.Project.self, response).slug
    }

    /// The trees of a `GET …/trees` answer.
    func trees(_ response: TestResponse) throws -> [Components.Schemas.Tree] {
        try decode(Operations.ListTrees.Output.Ok.Body.JsonPayload.self, response).trees
    }

    /// The `error.message` of an error response.
    func errorMessage(_ response: TestResponse) throws -> String {
        try decode(Components.Schemas._Error.self, response).error.message
    }

    /// The id of a created planting area.
    func areaID(_ response: TestResponse) throws -> String {
        try decode(Components.Schemas.Area.self, response).id
    }

    /// The id of an uploaded asset.
    func assetID(_ response: TestResponse) throws -> String {
        try decode(Components.Schemas.Asset.self, response).id
    }

    /// The bytes of an example of the repository.
    func example(_ name: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/\(name)")))
    }

    /// A small textured model as GLB: a unit cube with a 2×2 texture.
    static var cubeGLB: [UInt8] {
        let pixels: [Float] = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1]
        let png = pixels.withUnsafeBufferPointer { PNGEncoder.encode(width: 2, height: 2, premultiplied: $0) }
        let corners: [SIMD3<Float>] = [
            SIMD3(-0.5, -0.5, 0.5), SIMD3(0.5, -0.5, 0.5), SIMD3(0.5, 0.5, 0.5), SIMD3(-0.5, 0.5, 0.5),
            SIMD3(-0.5, -0.5, -0.5), SIMD3(0.5, -0.5, -0.5), SIMD3(0.5, 0.5, -0.5), SIMD3(-0.5, 0.5, -0.5),
        ]
        let indices: [UInt32] = [
            0, 1, 2, 0, 2, 3, 5, 4, 7, 5, 7, 6, 1, 5, 6, 1, 6, 2, 4, 0, 3, 4, 3, 7, 3, 2, 6, 3, 6, 7, 4, 5, 1, 4, 1, 0,
        ]
        let uvs = corners.map { SIMD2<Float>($0.x + 0.5, 0.5 - $0.y) }
        let model = Model(
            nodes: [Node(name: "Cube", meshes: [0])], roots: [0],
            meshes: [Mesh(name: "Cube", positions: corners, uvs: uvs, indices: indices, material: 0)],
            materials: [Material(name: "Tiles", baseColorTexture: 0, metallicFactor: 0)],
            textures: [Texture(name: "tiles", data: png, format: .png)])
        return (try? GLBWriter().write(model)) ?? []
    }

    /// The `error.code` of an error response.
    func errorCode(_ response: TestResponse) throws -> String? {
        try? decode(Components.Schemas._Error.self, response).error.code.value2
    }
}

extension Logger {
    /// The servers' logger in tests: warnings and worse only, so the report of a failing test is not
    /// buried under thousands of request lines at the end of CI's output.
    static var quiet: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }
}
