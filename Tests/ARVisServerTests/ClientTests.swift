import ARVisClient
import ARVisTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import Testing

/// The generated client against the server, operation by operation: every answer decodes into the
/// types `openapi.yaml` promises, so the client and the server cannot drift apart unnoticed.
struct ClientTests: ServerTesting {
    let scratch = ScratchFolder("server-client")

    /// The README's bar chart, as text.
    private static var chart: String {
        get throws {
            try String(
                contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/laptop-benchmark-bar-chart.json"),
                encoding: .utf8)
        }
    }

    @Test func accountsAndProjects() async throws {
        try await withServer { client in
            let anonymous = apiClient(client)
            #expect(try await anonymous.health().ok.body.json.status == .ok)
            let alice = Components.Schemas.Credentials(username: "alice", password: "correct horse battery")
            #expect(try await anonymous.signUp(body: .json(alice)).created.body.json.username == "alice")
            let token = try await anonymous.signIn(body: .json(alice)).created.body.json.token
            let api = apiClient(client, token: token)
            #expect(try await api.currentAccount().ok.body.json.username == "alice")

            let slug = try await api.createProject(body: .json(.init(name: "Museum", visibility: ._private)))
                .created.body.json.slug
            #expect(try await api.listProjects().ok.body.json.projects.map(\.slug) == [slug])
            let project = try await api.getProject(path: .init(project: slug)).ok.body.json
            #expect(project.name == "Museum" && project.role == .owner)
            let renamed = try await api.updateProject(
                path: .init(project: slug), body: .json(.init(name: "Museum of Light"))
            ).ok.body.json
            #expect(renamed.name == "Museum of Light")

            let bob = Components.Schemas.Credentials(username: "bob", password: "correct horse battery")
            _ = try await anonymous.signUp(body: .json(bob)).created
            _ = try await api.setMember(path: .init(project: slug, username: "bob"), body: .json(.init(role: .editor)))
                .ok
            let members = try await api.listMembers(path: .init(project: slug)).ok.body.json.members
            #expect(Set(members.map(\.username)) == ["alice", "bob"])
            _ = try await api.removeMember(path: .init(project: slug, username: "bob")).noContent

            _ = try await api.trashProject(path: .init(project: slug)).noContent
            #expect(try await api.getProject(path: .init(project: slug)).ok.body.json.trashedAt != nil)
            _ = try await api.restoreProject(path: .init(project: slug)).ok
            _ = try await api.signOut().noContent
            _ = try await api.currentAccount().unauthorized  // the token is signed out
        }
    }

    @Test func specsAndVersions() async throws {
        try await withServer { client in
            let (api, slug) = try await signedInClient(client, "carol", project: "Charts")
            let path = Operations.PutSpec.Input.Path(project: slug, name: "chart")
            let chart = try Self.chart
            let first = try await api.putSpec(path: path, body: .yaml(HTTPBody(chart))).created.body.json
            #expect(first.version == 1)
            let edited = chart.replacingOccurrences(of: "}", with: "} ")
            let second = try await api.putSpec(
                path: path, headers: .init(ifMatch: first.etag), body: .yaml(HTTPBody(edited))
            ).ok.body.json
            #expect(second.version == 2)
            let stale = try await api.putSpec(
                path: path, headers: .init(ifMatch: first.etag), body: .yaml(HTTPBody(edited)))
            _ = try stale.preconditionFailed  // throws for any other answer

            #expect(try await api.listSpecs(path: .init(project: slug)).ok.body.json.specs.map(\.name) == ["chart"])
            let versions = try await api.listSpecVersions(path: .init(project: slug, name: "chart")).ok.body.json
                .versions
            #expect(versions.map(\.version).sorted() == [1, 2])
            let stored = try await api.getSpec(path: .init(project: slug, name: "chart")).ok
            #expect(stored.headers.eTag == second.etag)
            _ = try await api.restoreSpecVersion(path: .init(project: slug, name: "chart", version: 1)).created
            #expect(
                try await api.listSpecVersions(path: .init(project: slug, name: "chart")).ok.body.json.versions.count
                    == 3)
            _ = try await api.deleteSpec(path: .init(project: slug, name: "chart")).noContent
            #expect(try await api.listSpecs(path: .init(project: slug)).ok.body.json.specs.isEmpty)
        }
    }

    @Test func treesAnchorsRowsAndSpecies() async throws {
        try await withServer { client in
            let (api, slug) = try await signedInClient(client, "dana", project: "Forest")

            let species = try await api.searchSpecies(query: .init(q: "sobreiro")).ok.body.json.species
            #expect(species.first?.portugueseName.lowercased().contains("sobreiro") == true)

            let tree = try await api.plantTree(
                path: .init(project: slug),
                body: .json(.init(species: "sobreiro", position: .init(x: 1, z: 2)))
            ).created.body.json
            #expect(try await api.listTrees(path: .init(project: slug)).ok.body.json.trees.map(\.id) == [tree.id])
            _ = try await api.removeTree(path: .init(project: slug, id: tree.id)).noContent

            let anchor = try await api.createAnchor(
                path: .init(project: slug),
                body: .json(.init(pose: .init(position: [0, 1, 2], orientation: [0, 0, 0, 1])))
            ).created.body.json
            #expect(try await api.getAnchor(path: .init(project: slug, id: anchor.id)).ok.body.json.id == anchor.id)
            #expect(try await api.listAnchors(path: .init(project: slug)).ok.body.json.anchors.count == 1)
            _ = try await api.deleteAnchor(path: .init(project: slug, id: anchor.id)).noContent

            let appended = try await api.appendRows(
                path: .init(project: slug, dataset: "sensor"),
                body: .applicationXNdjson(HTTPBody("{\"t\": 1}\n{\"t\": 2}\n"))
            ).created.body.json
            #expect(appended.appended == 2)
            let rows = try await api.listRows(path: .init(project: slug, dataset: "sensor")).ok.body.json.rows
            #expect(rows.map(\.seq) == [appended.first, appended.last])
            #expect(
                try await api.listDatasets(path: .init(project: slug)).ok.body.json.datasets.map(\.name) == ["sensor"])
            _ = try await api.deleteDataset(path: .init(project: slug, dataset: "sensor")).noContent
        }
    }
}
