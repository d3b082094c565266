import ARVisSupport
import ARVisTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing

@testable import ARVisStore

/// The store suite, on a fresh SQLite file and, when `ARVIS_TEST_POSTGRES` names a PostgreSQL
/// server (`.ci/run` starts one), on a fresh PostgreSQL database per test.
struct StoreTests {
    let scratch = ScratchFolder("store")

    /// The engines to run on: SQLite always, PostgreSQL when configured.
    static let engines: [Store.Engine] = {
        guard ProcessInfo.processInfo.environment["ARVIS_TEST_POSTGRES"] != nil else {
            print(
                "note: the store suite runs on SQLite only; set ARVIS_TEST_POSTGRES=postgres://… (Scripts/postgres_cluster.sh starts one) for PostgreSQL"
            )
            return [.sqlite]
        }
        return [.sqlite, .postgres]
    }()

    private func store(_ engine: Store.Engine) async throws -> Store {
        switch engine {
        case .sqlite: try await Store.open(sqliteAt: try scratch.folder().appendingPathComponent("arvis.sqlite").path)
        case .postgres: try await Store.open(postgres: try await Self.freshPostgresDatabase())
        }
    }

    /// A new, empty database on the server of `ARVIS_TEST_POSTGRES`; its URL.
    static func freshPostgresDatabase() async throws -> String {
        let admin = try #require(ProcessInfo.processInfo.environment["ARVIS_TEST_POSTGRES"])
        let name = "arvis_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let client = PostgresClient(
            configuration: try PostgresURL.configuration(admin), backgroundLogger: Logger(label: "test"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        try await client.query("CREATE DATABASE \(unescaped: name)")
        var components = try #require(URLComponents(string: admin))
        components.path = "/" + name
        return try #require(components.string)
    }

    @Test(arguments: StoreTests.engines) func usernamesAreUniqueWithoutRegardToCase(_ engine: Store.Engine) async throws
    {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "Ana", passwordHash: "h1")
        await #expect { try await store.createAccount(username: "ana", passwordHash: "h2") } throws: {
            ($0 as? StoreError)?.code == .conflict
        }
        let found = try #require(try await store.credentials(username: "ANA"))
        #expect(found.account == ana && found.passwordHash == "h1")
        #expect(try await store.credentials(username: "bo") == nil)
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func sessionsExpireAndEnd(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
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

    @Test(arguments: StoreTests.engines) func projectsHaveOneSlugAndAnOwner(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let bo = try await store.createAccount(username: "bo", passwordHash: "h")
        let project = try await store.createProject(
            slug: "museum", name: "Museum", visibility: .unlisted, ownerID: ana.id)
        await #expect {
            try await store.createProject(slug: "museum", name: "Other", visibility: .private, ownerID: bo.id)
        } throws: { ($0 as? StoreError)?.code == .conflict }
        #expect(try await store.project(slug: "museum") == project)
        #expect(try await store.role(accountID: ana.id, projectID: project.id) == .owner)
        #expect(try await store.role(accountID: bo.id, projectID: project.id) == nil)
        #expect(try await store.projects(accountID: ana.id).map(\.project.slug) == ["museum"])
        await store.close()
    }

    /// Every save is a new version; a write against a stale version changes nothing.
    @Test(arguments: StoreTests.engines) func specsKeepEveryVersionAndRefuseStaleWrites(_ engine: Store.Engine)
        async throws
    {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(
            slug: "museum", name: "Museum", visibility: .public, ownerID: ana.id)
        let first = try await store.saveSpec(
            projectID: project.id, name: "ensor", body: Array("{}".utf8), contentHash: "a",
            mediaType: "application/json", authorID: ana.id, expectedVersion: 0)
        #expect(first.version == 1)
        let second = try await store.saveSpec(
            projectID: project.id, name: "ensor", body: Array("{\"a\":1}".utf8), contentHash: "b",
            mediaType: "application/json", authorID: ana.id, expectedVersion: 1)
        #expect(second.version == 2)
        await #expect {
            try await store.saveSpec(
                projectID: project.id, name: "ensor", body: [], contentHash: "c", mediaType: "application/json",
                authorID: ana.id, expectedVersion: 1)
        } throws: { ($0 as? StoreError)?.code == .preconditionFailed }
        let latest = try #require(try await store.spec(projectID: project.id, name: "ensor"))
        #expect(latest.version == 2 && latest.body == Array("{\"a\":1}".utf8) && latest.author == "ana")
        #expect(try await store.spec(projectID: project.id, name: "ensor", version: 1)?.body == Array("{}".utf8))
        #expect(try await store.versions(projectID: project.id, name: "ensor").map(\.version) == [2, 1])
        #expect(try await store.spec(projectID: project.id, name: "other") == nil)
        await store.close()
    }

    /// Concurrent writers against the same version: exactly one wins, the others get a precondition failure.
    @Test(arguments: StoreTests.engines) func concurrentSavesNeverLoseOrDuplicate(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "race", name: "Race", visibility: .private, ownerID: ana.id)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    (try? await store.saveSpec(
                        projectID: project.id, name: "s", body: [UInt8(index)], contentHash: "\(index)",
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
    @Test(arguments: StoreTests.engines) func deletingAnAccountTrashesWhatItAloneOwns(_ engine: Store.Engine)
        async throws
    {
        let store = try await store(engine)
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
        await #expect { try await Store.open(sqliteAt: "/proc/arvis/nope.sqlite") } throws: {
            ($0 as? StoreError)?.code == .unavailable
        }
    }

    @Test func aWaitForAConnectionEndsAtItsLimitEvenWhenThePoolIgnoresCancellation() async throws {
        let (poolAnswers, answer) = AsyncStream.makeStream(of: Void.self)
        let wrote = NIOLockedValueBox(false)
        // The pool answers at last after 60 s (so a wait that does not end fails this test instead of
        // hanging it); the refusal must come first. Told by order, not by a tight clock: the whole
        // suite running at once has held every timer here for half a minute.
        let answered = NIOLockedValueBox(false)
        let lateAnswer = Task {
            try await Task.sleep(for: .seconds(60))
            answered.withLockedValue { $0 = true }
            answer.yield()
        }
        defer { lateAnswer.cancel() }
        await #expect {
            try await Store.leasing(within: .milliseconds(200)) { leased in
                // A pool that does not end its wait when cancelled: it answers only when told.
                for await _ in poolAnswers { break }
                try leased()
                wrote.withLockedValue { $0 = true }
            }
        } throws: {
            ($0 as? StoreError)?.code == .unavailable
        }
        #expect(!answered.withLockedValue { $0 }, "the refusal waited for the pool")
        answer.yield()  // the connection comes too late: the refused write must not be made
        try await Task.sleep(for: .milliseconds(100))
        #expect(!wrote.withLockedValue { $0 })
    }

    @Test func workHoldingItsConnectionIsNotCutWhileTheDatabaseAnswersButReportedWhenLong() async throws {
        let reports = NIOLockedValueBox<[Duration]>([])
        let (reported, report) = AsyncStream.makeStream(of: Void.self)
        let watch = HoldWatch(
            after: .milliseconds(150), databaseAnswers: { true },
            report: { duration in
                reports.withLockedValue { $0.append(duration) }
                report.yield()
            })
        // The work runs on until it was reported (or 60 s pass, and the check below fails).
        let value = try await Store.leasing(within: .milliseconds(50), watching: watch) { leased in
            try leased()
            let giveUp = Task {
                try await Task.sleep(for: .seconds(60))
                report.yield()
            }
            for await _ in reported { break }
            giveUp.cancel()
            return 7
        }
        #expect(value == 7)
        #expect(reports.withLockedValue { $0 } == [.milliseconds(150)])
        let quick = try await Store.leasing(within: .milliseconds(50), watching: watch) { leased in
            try leased()
            return 8
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(quick == 8 && reports.withLockedValue { $0 }.count == 1)
    }

    @Test func workHoldingItsConnectionIsRefusedWhenTheDatabaseStopsAnswering() async throws {
        let (poolAnswers, answer) = AsyncStream.makeStream(of: Void.self)
        let answered = NIOLockedValueBox(false)
        let late = Task {  // a query that never ends would hang this test: it ends after 60 s
            try await Task.sleep(for: .seconds(60))
            answered.withLockedValue { $0 = true }
            answer.yield()
        }
        defer { late.cancel() }
        let watch = HoldWatch(after: .milliseconds(200), databaseAnswers: { false }, report: { _ in })
        await #expect {
            try await Store.leasing(within: .milliseconds(50), watching: watch) { leased in
                try leased()
                for await _ in poolAnswers { break }  // a query on a connection the database dropped
            }
        } throws: {
            ($0 as? StoreError)?.code == .unavailable
        }
        #expect(!answered.withLockedValue { $0 }, "the refusal waited for the query")
    }

    @Test(arguments: StoreTests.engines) func annotationsPlacedTogetherAreEachWrittenOnceWithTheirEvents(
        _ engine: Store.Engine
    ) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "taps", name: "Taps", visibility: .private, ownerID: ana.id)
        let feed = store.eventFeed()
        // 30 taps at once in 3 rooms, each sent twice under its client id (a retry racing the first).
        let outcomes = try await withThrowingTaskGroup(of: (annotation: Annotation, created: Bool).self) { group in
            for n in 0..<60 {
                group.addTask {
                    try await store.placeAnnotation(
                        projectID: project.id,
                        Annotation(room: "r\(n % 3)", x: Double(n / 2), y: 0, z: 0, clientID: "c\(n / 2)"),
                        authorID: ana.id)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let created = outcomes.filter(\.created).map(\.annotation)
        #expect(created.count == 30)
        #expect(
            Dictionary(grouping: outcomes) { $0.annotation.clientID }.values.allSatisfy {
                Set($0.map(\.annotation.id)).count == 1
            })
        #expect(Set(try await store.annotations(projectID: project.id).map(\.id)) == Set(created.map(\.id)))
        var events: [StoreEvent] = []
        for await event in feed where event.kind == .annotationAdded {
            events.append(event)
            if events.count == 30 { break }
        }
        #expect(Set(events.map(\.subject)) == Set(created.map(\.id)))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(events.allSatisfy { event in created.first { $0.id == event.subject }?.room == event.detail })
        // A later retry gets the stored annotation as it was written, every field, its author's name.
        let first = try #require(created.first { $0.clientID == "c0" })
        let retry = try await store.placeAnnotation(
            projectID: project.id, Annotation(room: "elsewhere", x: 9, y: 9, z: 9, text: "again", clientID: "c0"),
            authorID: nil)
        #expect(!retry.created)
        #expect(retry.annotation.id == first.id && retry.annotation.room == first.room)
        #expect(retry.annotation.x == first.x && retry.annotation.createdAt == first.createdAt)
        #expect(retry.annotation.author == "ana")
        let noted = try await store.placeAnnotation(
            projectID: project.id,
            Annotation(
                room: "r0", x: 0.1, y: -2.5e-7, z: 1e300, text: "héllo \"quoted\"\n", frame: 1 << 40, author: "ana"),
            authorID: ana.id)
        let stored = try await store.annotations(projectID: project.id, room: "r0")
        #expect(stored.first { $0.id == noted.annotation.id } == noted.annotation)
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func aFullRoomRefusesOnlyWhatDoesNotFit(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "full", name: "Full", visibility: .private, ownerID: ana.id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<(Store.annotationsPerRoom - 1) {
                group.addTask {
                    _ = try await store.placeAnnotation(
                        projectID: project.id, Annotation(room: "full", x: Double(n), y: 0, z: 0), authorID: nil)
                }
            }
            try await group.waitForAll()
        }
        let last = try await withThrowingTaskGroup(of: Result<Bool, StoreError>.self) { group in
            for room in ["full", "full", "other"] {
                group.addTask {
                    do throws(StoreError) {
                        return .success(
                            try await store.placeAnnotation(
                                projectID: project.id, Annotation(room: room, x: 0, y: 0, z: 0), authorID: nil
                            ).created)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(last.filter { (try? $0.get()) == true }.count == 2)
        #expect(last.contains { if case .failure(let error) = $0 { error.code == .conflict } else { false } })
        #expect(try await store.annotations(projectID: project.id, room: "full").count == Store.annotationsPerRoom)
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func aProjectKeepsAnOwner(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        _ = try await store.createAccount(username: "Bo", passwordHash: "h")
        let project = try await store.createProject(
            slug: "garden", name: "Garden", visibility: .private, ownerID: ana.id)
        await #expect { try await store.setMember(projectID: project.id, username: "ana", role: .editor) } throws: {
            ($0 as? StoreError)?.code == .conflict
        }
        #expect(
            try await store.setMember(projectID: project.id, username: "bo", role: .viewer)
                == Member(username: "Bo", role: .viewer))
        #expect(try await store.members(projectID: project.id).map(\.role) == [.owner, .viewer])
        try await store.removeMember(projectID: project.id, username: "BO")
        await #expect { try await store.removeMember(projectID: project.id, username: "bo") } throws: {
            ($0 as? StoreError)?.code == .notFound
        }
        let moved = try await store.updateProject(
            id: project.id, ProjectChange(location: .some(ProjectFrame(latitude: 39.7, longitude: -8.8, heading: 90))))
        #expect(moved.location?.heading == 90)
        #expect(try await store.project(slug: "garden")?.location == moved.location)
        await store.close()
    }

    /// Many editors planting around one spot at once: every pair of stored trees keeps its spacing.
    @Test(arguments: StoreTests.engines) func concurrentPlantingKeepsTheSpacing(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(
            slug: "forest", name: "Forest", visibility: .private, ownerID: ana.id)
        let planted = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let tree = Tree(
                        species: "Pinus pinea", spacing: 5, x: Double(index % 8), y: 0, z: Double(index / 8),
                        clientID: "c\(index)")
                    return
                        (try? await store.plantTree(projectID: project.id, tree, plantedByID: ana.id, largestSpacing: 5)
                        .planted) ?? false
                }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        let trees = try await store.trees(projectID: project.id)
        #expect(trees.count == planted && planted >= 1)
        for (i, a) in trees.enumerated() {
            for b in trees[(i + 1)...] {
                #expect(((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z)).squareRoot() >= 5)
            }
        }
        let retry = try await store.plantTree(
            projectID: project.id,
            Tree(species: "Pinus pinea", spacing: 5, x: 100, y: 0, z: 100, clientID: trees[0].clientID),
            plantedByID: ana.id, largestSpacing: 5)
        #expect(!retry.planted && retry.tree.id == trees[0].id)
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func anchorsKeepTheNewestHundredPerSession(_ engine: Store.Engine) async throws
    {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "panes", name: "Panes", visibility: .private, ownerID: ana.id)
        let start = Date()
        var saved: [Anchor] = []
        for index in 0..<105 {
            saved.append(
                try await store.saveAnchor(
                    projectID: project.id,
                    Anchor(
                        session: "s", pose: [Double(index), 0, 0, 0, 0, 0, 1], payload: Array("{}".utf8),
                        createdAt: start.addingTimeInterval(Double(index)), expiresAt: start.addingTimeInterval(86_400))
                ))
        }
        let kept = try await store.anchors(projectID: project.id, session: "s", now: start)
        #expect(kept.count == 100)
        #expect(kept.first?.pose.first == 5)
        #expect(kept.first?.pose == [5, 0, 0, 0, 0, 0, 1])
        // Each evicted anchor is announced as deleted, after the save that pushed it out.
        let events = try await store.events(projectID: project.id, after: 0)
        let deleted = events.filter { $0.kind == .anchorDeleted }.map(\.subject)
        #expect(deleted == saved.prefix(5).map(\.id))
        let sixth = try #require(events.firstIndex { $0.kind == .anchorSaved && $0.subject == saved[100].id })
        #expect(events.firstIndex { $0.kind == .anchorDeleted } ?? -1 > sixth)
        // Anchors by their payload's kind: bubbles go, announced; the rest stay.
        for payload in [#"{"kind":"pane","width":0.6}"#, #"{"kind":"trail"}"#, #"{"kind":"note"}"#, "[1]"] {
            _ = try await store.saveAnchor(
                projectID: project.id,
                Anchor(
                    session: "t", pose: [0, 0, 0, 0, 0, 0, 1], payload: Array(payload.utf8), createdAt: start,
                    expiresAt: start.addingTimeInterval(86_400)))
        }
        let last = try await store.lastEventSequence()
        #expect(try await store.deleteAnchors(projectID: project.id, kinds: ["pane", "trail"]) == 2)
        #expect(try await store.anchors(projectID: project.id, session: "t", now: start).count == 2)
        let announced = try await store.events(projectID: project.id, after: last)
        #expect(announced.map(\.kind) == [.anchorDeleted, .anchorDeleted])
        await store.close()
    }

    @Test func badDatabaseURLsAreRefused() async {
        await #expect { try await Store.open(postgres: "mysql://x@y/z") } throws: {
            ($0 as? StoreError)?.code == .invalid
        }
        await #expect { try await Store.open(postgres: "postgres://u@h/d?sslmode=sometimes") } throws: {
            ($0 as? StoreError)?.code == .invalid
        }
        #expect(PostgresURL.redacted("postgres://u:secret@h/d").contains("secret") == false)
        #expect(throws: StoreError.self) { try PostgresURL.connectionConfiguration("postgres://h/d") }
    }

    /// The check of a call holding its connection for long opens a connection of its own, so it is
    /// answered while every pooled connection is busy.
    @Test(.enabled(if: StoreTests.engines.contains(.postgres)))
    func theDatabaseIsCheckedOnAConnectionOutsideThePool() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["ARVIS_TEST_POSTGRES"])
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresURL.connectionConfiguration(url), id: 1, logger: Logger(label: "test"))
        var answers: [Int] = []
        for try await one in try await connection.query("SELECT 1", logger: Logger(label: "test")).decode(Int.self) {
            answers.append(one)
        }
        #expect(answers == [1])
        try await connection.close()
    }
}
