import ARVisClient
import ARVisServer
import ARVisStore
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The server in process (HummingbirdTesting's router client) on a fresh SQLite file per test.
struct ServerTests: ServerTesting {
    let scratch = ScratchFolder("server")

    @Test func healthAnswers() async throws {
        try await withServer { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(try decode(Components.Schemas.Health.self, response).database == .sqlite)
        }
    }

    @Test func accountsSignInAndOut() async throws {
        try await withServer { client in
            let headers = try await signIn(client, "Ana")
            let me = try await client.execute(uri: "/api/v1/accounts/current", method: .get, headers: headers)
            #expect(me.status == .ok)
            #expect(try decode(Components.Schemas.Account.self, me).username == "Ana")
            let taken = try await client.execute(
                uri: "/api/v1/accounts", method: .post, headers: Self.jsonHeaders,
                body: try json(["username": "ana", "password": "another long one"]))
            #expect(taken.status == .conflict)
            #expect(try errorCode(taken) == "usernameTaken")
            #expect(
                try await client.execute(uri: "/api/v1/sessions/current", method: .delete, headers: headers).status
                    == .noContent)
            #expect(
                try await client.execute(uri: "/api/v1/accounts/current", method: .get, headers: headers).status
                    == .unauthorized,
                "the token stops working at once")
        }
    }

    @Test func badSignUpsAreRefusedWithReasons() async throws {
        try await withServer { client in
            let short = try await client.execute(
                uri: "/api/v1/accounts", method: .post, headers: Self.jsonHeaders,
                body: try json(["username": "ana", "password": "short"]))
            #expect(short.status == .unprocessableContent)
            let badName = try await client.execute(
                uri: "/api/v1/accounts", method: .post, headers: Self.jsonHeaders,
                body: try json(["username": "-x", "password": "long enough password"]))
            #expect(badName.status == .unprocessableContent)
            let notJSON = try await client.execute(
                uri: "/api/v1/accounts", method: .post, headers: Self.jsonHeaders, body: ByteBuffer(string: "{"))
            #expect(notJSON.status == .badRequest)
        }
    }

    /// Wrong passwords are limited per account: past the limit even the right one waits.
    @Test func signInIsRateLimited() async throws {
        try await withServer { client in
            _ = try await signIn(client, "bob")
            let wrong = try json(["username": "bob", "password": "wrong password!"])
            for _ in 0..<3 {
                #expect(
                    try await client.execute(
                        uri: "/api/v1/sessions", method: .post, headers: Self.jsonHeaders, body: wrong
                    ).status == .unauthorized)
            }
            let right = try json(["username": "bob", "password": "correct horse battery"])
            let limited = try await client.execute(
                uri: "/api/v1/sessions", method: .post, headers: Self.jsonHeaders, body: right)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    /// Projects: the creator owns it; private projects are invisible to others, unlisted ones readable.
    @Test func projectsAndTheirVisibility() async throws {
        try await withServer { client in
            let ana = try await signIn(client, "ana")
            let bo = try await signIn(client, "bob")
            let created = try await client.execute(
                uri: "/api/v1/projects", method: .post, headers: ana,
                body: try json(["name": "Museum of Fine Arts", "visibility": "private"]))
            #expect(created.status == .created)
            let project = try decode(Components.Schemas.Project.self, created)
            #expect(project.slug == "museum-of-fine-arts" && project.role == .owner)
            _ = try await client.execute(
                uri: "/api/v1/projects", method: .post, headers: ana,
                body: try json(["name": "Trees", "slug": "trees", "visibility": "unlisted"]))
            let taken = try await client.execute(
                uri: "/api/v1/projects", method: .post, headers: bo,
                body: try json(["name": "Trees", "slug": "trees", "visibility": "public"]))
            #expect(taken.status == .conflict)
            #expect(
                try await client.execute(uri: "/api/v1/projects/museum-of-fine-arts", method: .get, headers: bo).status
                    == .notFound)
            #expect(
                try await client.execute(uri: "/api/v1/projects/museum-of-fine-arts", method: .get).status == .notFound)
            let visitor = try await client.execute(uri: "/api/v1/projects/trees", method: .get)
            #expect(visitor.status == .ok)
            #expect(try decode(Components.Schemas.Project.self, visitor).role == nil)
            let mine = try await client.execute(uri: "/api/v1/projects", method: .get, headers: ana)
            #expect(
                try decode(Operations.ListProjects.Output.Ok.Body.JsonPayload.self, mine).projects.map(\.slug) == [
                    "museum-of-fine-arts", "trees",
                ])
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects", method: .post, headers: Self.jsonHeaders,
                    body: try json(["name": "x", "visibility": "public"])
                ).status == .unauthorized)
        }
    }

    /// Changing the password needs the current one, keeps this session and signs out the others.
    @Test func changingThePassword() async throws {
        try await withServer { client in
            let first = try await signIn(client, "cleo")
            let second = try await client.execute(
                uri: "/api/v1/sessions", method: .post, headers: Self.jsonHeaders,
                body: try json(["username": "cleo", "password": "correct horse battery"]))
            let other: HTTPFields = [
                .authorization: "Bearer \(try decode(Components.Schemas.Session.self, second).token)"
            ]
            let wrong = try await client.execute(
                uri: "/api/v1/accounts/current/password", method: .put, headers: first,
                body: try json(["currentPassword": "not it at all", "newPassword": "a new long password"]))
            #expect(wrong.status == .forbidden)
            let changed = try await client.execute(
                uri: "/api/v1/accounts/current/password", method: .put, headers: first,
                body: try json(["currentPassword": "correct horse battery", "newPassword": "a new long password"]))
            #expect(changed.status == .noContent)
            #expect(
                try await client.execute(uri: "/api/v1/accounts/current", method: .get, headers: first).status == .ok)
            #expect(
                try await client.execute(uri: "/api/v1/accounts/current", method: .get, headers: other).status
                    == .unauthorized)
            let old = try await client.execute(
                uri: "/api/v1/sessions", method: .post, headers: Self.jsonHeaders,
                body: try json(["username": "cleo", "password": "correct horse battery"]))
            #expect(old.status == .unauthorized)
        }
    }

    /// Deleting the account needs the password; its token stops working and its lone project is trashed.
    @Test func deletingTheAccount() async throws {
        try await withServer { client in
            let headers = try await signIn(client, "dora")
            _ = try await client.execute(
                uri: "/api/v1/projects", method: .post, headers: headers,
                body: try json(["name": "Garden", "visibility": "public"]))
            #expect(
                try await client.execute(
                    uri: "/api/v1/accounts/current", method: .delete, headers: headers,
                    body: try json(["password": "wrong password!"])
                ).status == .forbidden)
            #expect(
                try await client.execute(
                    uri: "/api/v1/accounts/current", method: .delete, headers: headers,
                    body: try json(["password": "correct horse battery"])
                ).status == .noContent)
            #expect(
                try await client.execute(uri: "/api/v1/accounts/current", method: .get, headers: headers).status
                    == .unauthorized)
            #expect(try await client.execute(uri: "/api/v1/projects/garden", method: .get).status == .notFound)
        }
    }
}

/// The contract as served, and what it says about methods.
struct DocumentTests: ServerTesting {
    let scratch = ScratchFolder("server-document")

    @Test func theServedDocumentIsTheRepositorysOpenAPIYAML() async throws {
        let file = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        try await withServer { client in
            let served = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(served.status == .ok)
            #expect(String(buffer: served.body) == file)
            let page = try await client.execute(uri: "/docs", method: .get)
            #expect(String(buffer: page.body).contains("/api/v1/projects/{project}/specs/{name}"))
        }
    }

    @Test func aWrongMethodGets405WithAllow() async throws {
        try await withServer { client in
            let wrong = try await client.execute(uri: "/api/v1/projects/garden/specs/tour", method: .post)
            #expect(wrong.status == .methodNotAllowed)
            #expect(wrong.headers[.allow] == "DELETE, GET, PUT")
            #expect(try errorCode(wrong) == "methodNotAllowed")
            let options = try await client.execute(uri: "/s/garden/tour.json", method: .options)
            #expect(options.status == .noContent)
            #expect(options.headers[.allow] == "GET")
            #expect(try await client.execute(uri: "/nowhere", method: .post).status == .notFound)
            // Where paths overlap, the router's choice answers: `…/trees/groups` is not a tree's id.
            let groups = try await client.execute(uri: "/api/v1/projects/garden/trees/groups", method: .delete)
            #expect(groups.status == .methodNotAllowed && groups.headers[.allow] == "POST")
        }
    }
}

/// Cross-origin access: off by default, on for configured origins.
struct CORSTests: ServerTesting {
    let scratch = ScratchFolder("server-cors")

    @Test func browsersFromOtherOriginsAreRefusedUnlessConfigured() async throws {
        try await withServer { client in
            let response = try await client.execute(
                uri: "/health", method: .get, headers: [.origin: "https://elsewhere.example"])
            #expect(response.headers[.accessControlAllowOrigin] == nil)
        }
        try await withServer(allowedOrigins: ["https://studio.example"]) { client in
            let preflight = try await client.execute(
                uri: "/api/v1/projects", method: .options,
                headers: [.origin: "https://studio.example", .accessControlRequestMethod: "POST"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://studio.example")
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            let other = try await client.execute(
                uri: "/health", method: .get, headers: [.origin: "https://elsewhere.example"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
        }
    }
}

/// `/metrics` in Prometheus's format.
struct MetricsTests: ServerTesting {
    let scratch = ScratchFolder("server-metrics")

    @Test func metricsAreServedInPrometheusFormat() async throws {
        try await withServer { client in
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        }
    }
}
