import ARVisStore
import ARVisTestSupport
import Foundation
import Testing

/// The store on a fresh SQLite file per test.
struct StoreTests {
    let scratch = ScratchFolder("store")

    private func store() async throws -> Store {
        try await Store.open(sqliteAt: try scratch.folder().appendingPathComponent("arvis.sqlite").path)
    }

    @Test func usernamesAreUniqueWithoutRegardToCase() async throws {
        let store = try await store()
        let ana = try await store.createAccount(username: "Ana", passwordHash: "h1")
        await #expect { try await store.createAccount(username: "ana", passwordHash: "h2") } throws: { ($0 as? StoreError)?.code == .conflict }
        let found = try #require(try await store.credentials(username: "ANA"))
        #expect(found.account == ana && found.passwordHash == "h1")
        #expect(try await store.credentials(username: "bo") == nil)
        await store.close()
    }

    @Test func sessionsExpireAndEnd() async throws {
        let store = try await store()
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let now = Date()
        try await store.createSession(accountID: ana.id, tokenHash: "t1", expiresAt: now.addingTimeInterval(60))
        let found = try await store.account(tokenHash: "t1", now: now)
        #expect(found == ana, "\(String(describing: found)) vs \(ana)")
        #expect(try await store.account(tokenHash: "t1", now: now.addingTimeInterval(61)) == nil)
        try await store.deleteSession(tokenHash: "t1")
        #expect(try await store.account(tokenHash: "t1", now: now) == nil)
        try await store.createSession(accountID: ana.id, tokenHash: "a", expiresAt: now.addingTimeInterval(60))
        try await store.createSession(accountID: ana.id, tokenHash: "b", expiresAt: now.addingTimeInterval(60))
        try await store.changePasswordHash(accountID: ana.id, to: "h2", keeping: "a")
        #expect(try await store.account(tokenHash: "a", now: now) == ana)
        #expect(try await store.account(tokenHash: "b", now: now) == nil, "other sessions are signed out")
        await store.close()
    }

    @Test func projectsHaveOneSlugAndAnOwner() async throws {
        let store = try await store()
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let bo = try await store.createAccount(username: "bo", passwordHash: "h")
        let project = try await store.createProject(slug: "museum", name: "Museum", visibility: .unlisted, ownerID: ana.id)
        await #expect { try await store.createProject(slug: "museum", name: "Other", visibility: .private, ownerID: bo.id) } throws: { ($0 as? StoreError)?.code == .conflict }
        #expect(try await store.project(slug: "museum") == project)
        #expect(try await store.role(accountID: ana.id, projectID: project.id) == .owner)
        #expect(try await store.role(accountID: bo.id, projectID: project.id) == nil)
        #expect(try await store.projects(accountID: ana.id).map(\.project.slug) == ["museum"])
        await store.close()
    }

    /// Every save is a new version; a write against a stale version changes nothing.
    @Test func specsKeepEveryVersionAndRefuseStaleWrites() async throws {
        let store = try await store()
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "museum", name: "Museum", visibility: .public, ownerID: ana.id)
        let first = try await store.saveSpec(projectID: project.id, name: "ensor", body: Array("{}".utf8), contentHash: "a", mediaType: "application/json", authorID: ana.id, expectedVersion: 0)
        #expect(first.version == 1)
        let second = try await store.saveSpec(projectID: project.id, name: "ensor", body: Array("{\"a\":1}".utf8), contentHash: "b", mediaType: "application/json", authorID: ana.id, expectedVersion: 1)
        #expect(second.version == 2)
        await #expect {
            try await store.saveSpec(projectID: project.id, name: "ensor", body: [], contentHash: "c", mediaType: "application/json", authorID: ana.id, expectedVersion: 1)
        } throws: { ($0 as? StoreError)?.code == .preconditionFailed }
        let latest = try #require(try await store.spec(projectID: project.id, name: "ensor"))
        #expect(latest.version == 2 && latest.body == Array("{\"a\":1}".utf8) && latest.author == "ana")
        #expect(try await store.spec(projectID: project.id, name: "ensor", version: 1)?.body == Array("{}".utf8))
        #expect(try await store.versions(projectID: project.id, name: "ensor").map(\.version) == [2, 1])
        #expect(try await store.spec(projectID: project.id, name: "other") == nil)
        await store.close()
    }

    /// Concurrent writers against the same version: exactly one wins, the others get a precondition failure.
    @Test func concurrentSavesNeverLoseOrDuplicate() async throws {
        let store = try await store()
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "race", name: "Race", visibility: .private, ownerID: ana.id)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    (try? await store.saveSpec(projectID: project.id, name: "s", body: [UInt8(index)], contentHash: "\(index)",
                                               mediaType: "application/json", authorID: ana.id, expectedVersion: 0)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.versions(projectID: project.id, name: "s").count == 1)
        await store.close()
    }

    /// Deleting an account ends its sessions and trashes the projects it alone owns.
    @Test func deletingAnAccountTrashesWhatItAloneOwns() async throws {
        let store = try await store()
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        try await store.createSession(accountID: ana.id, tokenHash: "t", expiresAt: Date().addingTimeInterval(60))
        let project = try await store.createProject(slug: "mine", name: "Mine", visibility: .public, ownerID: ana.id)
        try await store.deleteAccount(id: ana.id)
        #expect(try await store.account(tokenHash: "t") == nil)
        #expect(try await store.credentials(username: "ana") == nil)
        #expect(try await store.project(slug: project.slug)?.trashedAt != nil)
        _ = try await store.createAccount(username: "ana", passwordHash: "h2")  // the name is free again
        await store.close()
    }

    @Test func reopeningKeepsEverything() async throws {
        let path = try scratch.folder().appendingPathComponent("keep.sqlite").path
        let first = try await Store.open(sqliteAt: path)
        _ = try await first.createAccount(username: "ana", passwordHash: "h")
        await first.close()
        let second = try await Store.open(sqliteAt: path)
        #expect(try await second.credentials(username: "ana") != nil)
        #expect(await second.ping())
        await second.close()
    }

    @Test func anUnopenableFileIsUnavailable() async {
        await #expect { try await Store.open(sqliteAt: "/proc/arvis/nope.sqlite") } throws: { ($0 as? StoreError)?.code == .unavailable }
    }
}
