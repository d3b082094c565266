import ARVisClient
import ARVisServer
import ARVisStore
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Members, changes, the trash and the purge.
struct ProjectLifeTests: ServerTesting {
    let scratch = ScratchFolder("server-projects")

    @Test func aProjectAlwaysKeepsAnOwner() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            _ = try await signIn(client, "eddy")
            let slug = try await createProject(client, owner, name: "Garden")
            let demote = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/olga", method: .put, headers: owner,
                body: try json(["role": "editor"]))
            #expect(demote.status == .conflict)
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/members/olga", method: .delete, headers: owner)
                    .status == .conflict)
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/members/nobody", method: .put, headers: owner,
                    body: try json(["role": "editor"])
                ).status == .notFound)
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/members/EDDY", method: .put, headers: owner,
                    body: try json(["role": "owner"])
                ).status == .ok, "usernames match without regard to case")
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/members/olga", method: .delete, headers: owner)
                    .status == .noContent,
                "with another owner, the first may leave")
        }
    }

    @Test func changesAndTheirLimits() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Garden")
            let moved = try await client.execute(
                uri: "/api/v1/projects/\(slug)", method: .patch, headers: owner,
                body: try json(["location": ["latitude": -22.9, "longitude": -43.2, "heading": 90]]))
            #expect(moved.status == .ok)
            #expect(try decode(Components.Schemas.Project.self, moved).location?.heading == 90)
            let wrong = try await client.execute(
                uri: "/api/v1/projects/\(slug)", method: .patch, headers: owner,
                body: try json(["location": ["latitude": 91, "longitude": 0]]))
            #expect(wrong.status == .unprocessableContent)
            let removed = try await client.execute(
                uri: "/api/v1/projects/\(slug)", method: .patch, headers: owner,
                body: try json(["removeLocation": true]))
            #expect(try decode(Components.Schemas.Project.self, removed).location == nil)
        }
    }

    @Test func theTrashKeepsAProjectUntilItIsRestoredOrPurged() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Garden", visibility: "public")
            let saved = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/label", method: .put, headers: owner,
                body: ByteBuffer(string: #"{"text": {"content": "Hi"}}"#))
            #expect(saved.status == .created)
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)", method: .delete, headers: owner).status
                    == .noContent)
            #expect(
                try await client.execute(uri: "/s/\(slug)/label.json", method: .get).status == .notFound,
                "trashed projects leave the hub")
            let trashed = try await client.execute(uri: "/api/v1/projects/\(slug)", method: .get, headers: owner)
            #expect(
                try decode(Components.Schemas.Project.self, trashed).trashedAt != nil, "owners still see it, marked")
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/restore", method: .post, headers: owner).status
                    == .ok)
            #expect(
                try await client.execute(uri: "/s/\(slug)/label.json", method: .get).status == .ok,
                "restored with its specs")
        }
    }

    @Test func thePurgeDeletesWhatWasTrashedLongAgo() async throws {
        let store = try await Store.open(sqliteAt: try scratch.folder().appendingPathComponent("purge.sqlite").path)
        let account = try await store.createAccount(username: "olga", passwordHash: "x")
        let old = try await store.createProject(slug: "old", name: "Old", visibility: .private, ownerID: account.id)
        let recent = try await store.createProject(
            slug: "recent", name: "Recent", visibility: .private, ownerID: account.id)
        try await store.setTrashed(projectID: old.id, at: Date(timeIntervalSinceNow: -31 * 86_400))
        try await store.setTrashed(projectID: recent.id, at: Date(timeIntervalSinceNow: -29 * 86_400))
        #expect(try await store.purgeTrash(before: Date(timeIntervalSinceNow: -30 * 86_400)) == 1)
        #expect(try await store.project(slug: "old") == nil)
        #expect(try await store.project(slug: "recent") != nil)
        await store.close()
    }
}
