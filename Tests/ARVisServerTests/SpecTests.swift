import ARVisServer
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
            let warnings = try #require(try object(first)["diagnostics"] as? [[String: Any]])
            #expect(
                warnings.contains { $0["code"] as? String == "trailingComma" },
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
            #expect(try object(second)["version"] as? Int == 2)
            let stale = try await client.execute(
                uri: uri, method: .put, headers: matching,
                body: ByteBuffer(string: "{\"text\": {\"content\": \"Lost?\"}}"))
            #expect(stale.status == .preconditionFailed, "a write against version 1 after version 2 is refused")
            #expect(try errorCode(stale) == "preconditionFailed")

            let versions = try await client.execute(uri: uri + "/versions", method: .get, headers: owner)
            #expect((try object(versions)["versions"] as? [[String: Any]])?.map { $0["version"] as? Int } == [2, 1])
            let old = try await client.execute(uri: uri + "/versions/1", method: .get, headers: owner)
            #expect(String(buffer: old.body) == Self.widget)
            let restored = try await client.execute(uri: uri + "/versions/1/restore", method: .post, headers: owner)
            #expect(restored.status == .created)
            #expect(try object(restored)["version"] as? Int == 3)
            #expect(
                String(buffer: try await client.execute(uri: uri, method: .get, headers: owner).body) == Self.widget)

            let list = try await client.execute(uri: "/api/v1/projects/\(slug)/specs", method: .get, headers: owner)
            #expect((try object(list)["specs"] as? [[String: Any]])?.first?["version"] as? Int == 3)
            #expect(try await client.execute(uri: uri, method: .delete, headers: owner).status == .noContent)
            #expect(try await client.execute(uri: uri, method: .get, headers: owner).status == .notFound)
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
            let diagnostics = try #require(try object(response)["diagnostics"] as? [[String: Any]])
            let first = try #require(diagnostics.first)
            #expect(first["file"] as? String == "label")
            #expect(first["line"] as? Int == 3)
            #expect(first["severity"] as? String == "error")
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
                try JSONSerialization.jsonObject(with: Data(hub.body.readableBytesView)) is [String: Any],
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
