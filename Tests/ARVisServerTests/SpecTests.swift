import ARVisClient
import ARVisServer
import ARVisSupport
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Specs over HTTP: versions, ETags, validation, syntaxes and limits.
struct SpecTests: ServerTesting {
    let scratch = ScratchFolder("server-specs")

    private static let widget = "{\n  \"text\": {\"content\": \"Hello\",},\n}\n"

    @Test func savingKeepsTheBytesAndEveryVersion() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum")
            let uri = "/api/v1/projects/\(slug)/specs/label"
            let first = try await client.execute(
                uri: uri, method: .put, headers: owner, body: ByteBuffer(string: Self.widget))
            #expect(first.status == .created)
            let etag = try #require(first.headers[.eTag])
            let warnings = try decode(Components.Schemas.SavedVersion.self, first).diagnostics ?? []
            #expect(
                warnings.contains { $0.code == "trailingComma" },
                "a trailing comma is kept and warned about")

            let read = try await client.execute(uri: uri, method: .get, headers: owner)
            #expect(read.status == .ok)
            #expect(String(buffer: read.body) == Self.widget, "the spec comes back byte for byte")
            #expect(read.headers[.eTag] == etag)
            var conditional = owner
            conditional[.ifNoneMatch] = etag
            #expect(try await client.execute(uri: uri, method: .get, headers: conditional).status == .notModified)

            var matching = owner
            matching[.ifMatch] = etag
            let second = try await client.execute(
                uri: uri, method: .put, headers: matching,
                body: ByteBuffer(string: "{\"text\": {\"content\": \"Bye\"}}"))
            #expect(second.status == .ok)
            #expect(try decode(Components.Schemas.SavedVersion.self, second).version == 2)
            let stale = try await client.execute(
                uri: uri, method: .put, headers: matching,
                body: ByteBuffer(string: "{\"text\": {\"content\": \"Lost?\"}}"))
            #expect(stale.status == .preconditionFailed, "a write against version 1 after version 2 is refused")
            #expect(try errorCode(stale) == "preconditionFailed")

            let versions = try await client.execute(uri: uri + "/versions", method: .get, headers: owner)
            #expect(
                try decode(Operations.ListSpecVersions.Output.Ok.Body.JsonPayload.self, versions).versions.map(
                    \.version)
                    == [2, 1])
            let old = try await client.execute(uri: uri + "/versions/1", method: .get, headers: owner)
            #expect(String(buffer: old.body) == Self.widget)
            let restored = try await client.execute(uri: uri + "/versions/1/restore", method: .post, headers: owner)
            #expect(restored.status == .created)
            #expect(try decode(Components.Schemas.SavedVersion.self, restored).version == 3)
            #expect(
                String(buffer: try await client.execute(uri: uri, method: .get, headers: owner).body) == Self.widget)

            let list = try await client.execute(uri: "/api/v1/projects/\(slug)/specs", method: .get, headers: owner)
            #expect(try decode(Operations.ListSpecs.Output.Ok.Body.JsonPayload.self, list).specs.first?.version == 3)
            #expect(try await client.execute(uri: uri, method: .delete, headers: owner).status == .noContent)
            #expect(try await client.execute(uri: uri, method: .get, headers: owner).status == .notFound)
        }
    }

    @Test func anIfMatchListSavesWhenOneOfItsTagsNamesTheLatest() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum")
            let uri = "/api/v1/projects/\(slug)/specs/label"
            func save(_ content: String, ifMatch: String) async throws -> TestResponse {
                var headers = owner
                headers[.ifMatch] = ifMatch
                return try await client.execute(
                    uri: uri, method: .put, headers: headers,
                    body: ByteBuffer(string: "{\"text\": {\"content\": \"\(content)\"}}"))
            }
            let first = try await client.execute(
                uri: uri, method: .put, headers: owner, body: ByteBuffer(string: Self.widget))
            let old = try #require(first.headers[.eTag])
            let latest = try #require(try await save("Two", ifMatch: old).headers[.eTag])

            let listed = try await save("Three", ifMatch: "\(old), W/\(latest)")
            #expect(listed.status == .ok, "a list naming the latest among others lets the save through")
            #expect(try decode(Components.Schemas.SavedVersion.self, listed).version == 3)
            let stale = try await save("Four", ifMatch: "\(old), \(latest)")
            #expect(stale.status == .preconditionFailed, "a list naming only older versions is refused")
            let broken = try await save("Four", ifMatch: "\(latest) \(old)")
            #expect(broken.status == .preconditionFailed, "two tags without a comma are no list")
            #expect(try errorCode(broken) == "preconditionFailed")
        }
    }

    @Test func anInvalidSpecGetsTheValidatorsDiagnostics() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum")
            let body = "{\n  \"text\": {\n    \"content\": 5\n  }\n}\n"
            let response = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/label", method: .put, headers: owner,
                body: ByteBuffer(string: body))
            #expect(response.status == .unprocessableContent)
            #expect(try errorCode(response) == "invalidSpec")
            let first = try #require(try decode(Components.Schemas.InvalidSpec.self, response).value2.diagnostics.first)
            #expect(first.file == "label")
            #expect(first.line == 3)
            #expect(first.severity == .error)
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/specs/label", method: .get, headers: owner)
                    .status == .notFound,
                "nothing was saved")
        }
    }

    @Test func yamlIsKeptAsYAMLAndServedAsJSONOnRequest() async throws {
        try await withServer { client in
            var owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "unlisted")
            owner[.contentType] = "application/yaml"
            let uri = "/api/v1/projects/\(slug)/specs/label"
            let saved = try await client.execute(
                uri: uri, method: .put, headers: owner, body: try example("museum-label.yaml"))
            #expect(saved.status == .created)
            var yaml = owner
            yaml[.accept] = "application/yaml"
            let asYAML = try await client.execute(uri: uri, method: .get, headers: yaml)
            #expect(asYAML.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(String(buffer: asYAML.body).hasPrefix("# A small widget written in YAML"))
            let hub = try await client.execute(uri: "/s/\(slug)/label.json", method: .get)
            #expect(hub.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(
                (try? JSONDecoder().decode(JSONValue.self, from: Data(hub.body.readableBytesView)))?.object != nil,
                "iARVis clients get JSON")
        }
    }

    @Test func badBodiesAreRefused() async throws {
        try await withServer(maximumSpecBytes: 1_000) { client in
            var owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum")
            let uri = "/api/v1/projects/\(slug)/specs/label"
            let big = try await client.execute(
                uri: uri, method: .put, headers: owner,
                body: ByteBuffer(string: "{\"text\": {\"content\": \"\(String(repeating: "x", count: 2_000))\"}}"))
            #expect(big.status == .contentTooLarge)
            #expect(try errorCode(big) == "tooLarge")
            let badName = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/a.b", method: .put, headers: owner,
                body: ByteBuffer(string: Self.widget))
            #expect(badName.status == .badRequest)
            owner[.contentType] = "text/plain"
            let plain = try await client.execute(
                uri: uri, method: .put, headers: owner, body: ByteBuffer(string: Self.widget))
            #expect(plain.status == .unsupportedMediaType)
        }
    }
}
