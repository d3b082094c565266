import ARVisTestSupport
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import ARVisStore

/// The event log: written in the transaction of the change it records, delivered in order on the
/// feed, read back for a client that resumes — and, on PostgreSQL, seen by every instance.
struct EventTests {
    let scratch = ScratchFolder("store-events")

    private func store(_ engine: Store.Engine, url: String? = nil) async throws -> Store {
        switch engine {
        case .sqlite:
            return try await Store.open(sqliteAt: try scratch.folder().appendingPathComponent("arvis.sqlite").path)
        case .postgres:
            let url = if let url { url } else { try await StoreTests.freshPostgresDatabase() }
            return try await Store.open(postgres: url)
        }
    }

    /// The next `count` events of `feed`, waiting at most five seconds.
    private func take(_ count: Int, from feed: AsyncStream<StoreEvent>) async throws -> [StoreEvent] {
        try await withThrowingTaskGroup(of: [StoreEvent].self) { group in
            group.addTask {
                var events: [StoreEvent] = []
                for await event in feed {
                    events.append(event)
                    if events.count == count { break }
                }
                return events
            }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                return []
            }
            let first = try await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    @Test(arguments: StoreTests.engines) func aTreeGroupIsPlantedAndTakenBackWholeWithItsEvents(
        _ engine: Store.Engine
    ) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "hill", name: "Hill", visibility: .public, ownerID: ana.id)
        _ = try await store.plantTree(
            projectID: project.id, Tree(species: "Quercus suber", spacing: 8, x: 0, y: 0, z: 0, session: "old"),
            plantedByID: ana.id, largestSpacing: 8)
        _ = try await store.plantTree(
            projectID: project.id, Tree(species: "Quercus suber", spacing: 8, x: 500, y: 0, z: 0, session: "phone"),
            plantedByID: ana.id, largestSpacing: 8)
        let feed = store.eventFeed()
        // The planner sees the trees around the tap and the session's, wherever they are.
        let seen = NIOLockedValueBox<[String]>([])
        let group = (0..<3).map {
            Tree(species: "Pinus pinea", spacing: 1, x: 10 + Double($0), y: 0, z: 0, group: "g1", session: "phone")
        }
        let planted = try await store.plantTreeGroup(
            projectID: project.id, session: "phone", clientID: "tap-1", around: 10, 0, within: 12, plantedByID: ana.id
        ) { standing in
            seen.withLockedValue { $0 = standing.map { "\($0.x)" }.sorted() }
            var trees = group
            trees[0].clientID = "tap-1"
            return .plant(trees)
        }
        #expect(seen.withLockedValue { $0 } == ["0.0", "500.0"])
        guard case .planted(let trees) = planted else {
            Issue.record("planted: \(planted)")
            return await store.close()
        }
        #expect(trees.map(\.x) == [10, 11, 12])
        let retried = try await store.plantTreeGroup(
            projectID: project.id, session: "phone", clientID: "tap-1", around: 10, 0, within: 12, plantedByID: ana.id
        ) { _ in .refuse(blocking: [], reason: "not asked") }
        guard case .retried(let again) = retried else {
            Issue.record("retried: \(retried)")
            return await store.close()
        }
        #expect(Set(again.map(\.id)) == Set(trees.map(\.id)) && again.allSatisfy { $0.plantedBy == "ana" })
        let refused = try await store.plantTreeGroup(
            projectID: project.id, session: "phone", clientID: "tap-2", around: 0, 0, within: 1, plantedByID: ana.id
        ) { standing in .refuse(blocking: standing, reason: "in the way") }
        guard case .refused(let blocking, "in the way") = refused else {
            Issue.record("refused: \(refused)")
            return await store.close()
        }
        #expect(blocking.count == 5, "the oak at the tap, the session's four")
        // An event reader gets a tree with its group in one read; a tree planted alone, itself.
        let read = try await store.treeAndGroup(projectID: project.id, id: trees[1].id)
        #expect(Set(read.map(\.id)) == Set(trees.map(\.id)))
        let alone = try #require(try await store.trees(projectID: project.id).first { $0.session == "old" })
        #expect(try await store.treeAndGroup(projectID: project.id, id: alone.id).map(\.id) == [alone.id])
        #expect(try await store.treeAndGroup(projectID: "elsewhere", id: alone.id).isEmpty)
        #expect(try await store.removeTreeGroup(projectID: project.id, id: "g1") == 3)
        #expect(try await store.removeTreeGroup(projectID: project.id, id: "g1") == 0)
        #expect(try await store.removeTrees(projectID: project.id, session: "phone") == 1)
        #expect(try await store.trees(projectID: project.id).map(\.session) == ["old"])
        let events = try await take(7, from: feed)
        #expect(
            events.map(\.kind) == Array(repeating: .treePlanted, count: 3) + Array(repeating: .treeRemoved, count: 4))
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func changesAreLoggedWithTheirEventsInOrder(_ engine: Store.Engine)
        async throws
    {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(
            slug: "museum", name: "Museum", visibility: .public, ownerID: ana.id)
        let feed = store.eventFeed()
        let before = try await store.lastEventSequence()
        _ = try await store.saveSpec(
            projectID: project.id, name: "tour", body: Array("{}".utf8), contentHash: "a",
            mediaType: "application/json", authorID: ana.id)
        let tree = try await store.plantTree(
            projectID: project.id, Tree(species: "Pinus pinea", spacing: 4, x: 0, y: 0, z: 0, clientID: "t1"),
            plantedByID: ana.id, largestSpacing: 10
        ).tree
        // A refused tree and a retried one log nothing.
        await #expect(throws: StoreError.self) {
            try await store.plantTree(
                projectID: project.id, Tree(species: "Pinus pinea", spacing: 4, x: 1, y: 0, z: 0), plantedByID: ana.id,
                largestSpacing: 10)
        }
        _ = try await store.plantTree(
            projectID: project.id, Tree(species: "Pinus pinea", spacing: 4, x: 0, y: 0, z: 0, clientID: "t1"),
            plantedByID: ana.id, largestSpacing: 10)
        let placed = try await store.placeAnnotation(
            projectID: project.id, Annotation(room: "visit", x: 1, y: 2, z: 3, text: "here"), authorID: ana.id)
        let rows = try await store.appendRows(projectID: project.id, dataset: "sensor", [#"{"v":1}"#, #"{"v":2}"#])
        #expect(try await store.removeTree(projectID: project.id, id: tree.id))
        #expect(try await store.deleteAnnotation(projectID: project.id, id: placed.annotation.id))
        #expect(try await store.deleteSpec(projectID: project.id, name: "tour"))

        let events = try await take(7, from: feed)
        #expect(
            events.map(\.kind) == [
                .specSaved, .treePlanted, .annotationAdded, .rowsAppended, .treeRemoved, .annotationDeleted,
                .specDeleted,
            ])
        #expect(events.map(\.sequence) == events.map(\.sequence).sorted() && (events.first?.sequence ?? 0) > before)
        #expect(events[0].subject == "tour" && events[0].detail == "1")
        #expect(events[2].detail == "visit" && events[3].detail == "\(rows[0].sequence)-\(rows[1].sequence)")
        #expect(try await store.events(projectID: project.id, after: before) == events)
        #expect(
            try await store.events(projectID: project.id, after: events[4].sequence).map(\.kind) == [
                .annotationDeleted, .specDeleted,
            ])
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func changesOfAccessAreLoggedForTheAccountsTheyTouch(_ engine: Store.Engine)
        async throws
    {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let bruno = try await store.createAccount(username: "bruno", passwordHash: "h")
        let project = try await store.createProject(slug: "site", name: "Site", visibility: .private, ownerID: ana.id)
        let other = try await store.createProject(slug: "other", name: "Other", visibility: .private, ownerID: bruno.id)
        try await store.createSession(accountID: bruno.id, tokenHash: "t", expiresAt: Date(timeIntervalSinceNow: 3_600))
        let feed = store.eventFeed()
        _ = try await store.setMember(projectID: project.id, username: "bruno", role: .editor)
        _ = try await store.updateProject(id: project.id, ProjectChange(visibility: .public))
        try await store.removeMember(projectID: project.id, username: "bruno")
        try await store.setTrashed(projectID: project.id, at: Date())
        try await store.deleteSession(tokenHash: "t")
        let events = try await take(5, from: feed)
        #expect(events.allSatisfy { $0.kind == .accessChanged })
        #expect(events.map(\.subject) == [bruno.id, "*", bruno.id, "*", bruno.id])
        #expect(
            events.map(\.projectID) == [project.id, project.id, project.id, project.id, other.id],
            "signing out reaches every project of the account")
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func usageCountsWhatAProjectHolds(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "site", name: "Site", visibility: .private, ownerID: ana.id)
        #expect(
            try await store.usage(projectID: project.id)
                == ProjectUsage(anchors: 0, assetBytes: 0, rows: 0, rowBytes: 0, versions: 0))
        _ = try await store.saveSpec(
            projectID: project.id, name: "a", body: Array("{}".utf8), contentHash: "a", mediaType: "application/json",
            authorID: ana.id)
        _ = try await store.saveSpec(
            projectID: project.id, name: "a", body: Array("[]".utf8), contentHash: "b", mediaType: "application/json",
            authorID: ana.id)
        _ = try await store.appendRows(
            projectID: project.id, dataset: "sensor", [#"{"v":1}"#, #"{"v":2}"#, #"{"v":3}"#])
        for size in [1_000, 2_500_000_000] {
            _ = try await store.addAsset(
                projectID: project.id,
                Asset(
                    name: "m", format: "glb", contentHash: String(repeating: "c", count: 64),
                    size: size, uploaderID: ana.id))
        }
        #expect(
            try await store.usage(projectID: project.id)
                == ProjectUsage(anchors: 0, assetBytes: 2_500_001_000, rows: 3, rowBytes: 21, versions: 2))
        // The server's secrets are made once; processing attempts count up and back down, never below 0.
        let secret = try await store.serverSecret(named: "grants") { "first" }
        let again = try await store.serverSecret(named: "grants") { "second" }
        #expect(secret == "first" && again == "first")
        let asset = try #require(try await store.unfinishedAssets().first?.asset)
        #expect(try await store.countAssetAttempt(id: asset.id) == 1)
        #expect(try await store.countAssetAttempt(id: asset.id, by: -1) == 0)
        #expect(try await store.countAssetAttempt(id: asset.id, by: -1) == 0)
        await store.close()
    }

    @Test(arguments: StoreTests.engines) func datasetsKeepTheirRowsInOrderAndAnswerWindows(_ engine: Store.Engine)
        async throws
    {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "hall", name: "Hall", visibility: .public, ownerID: ana.id)
        let old = Date().addingTimeInterval(-3_600)
        _ = try await store.appendRows(projectID: project.id, dataset: "sensor", [#"{"v":1}"#, #"{"v":2}"#], now: old)
        let recent = try await store.appendRows(
            projectID: project.id, dataset: "sensor", [#"{"v":3}"#, #"{"v":4}"#, #"{"v":5}"#])
        #expect(
            try await store.rows(projectID: project.id, dataset: "sensor").map(\.json)
                == (1...5).map { #"{"v":\#($0)}"# })
        #expect(
            try await store.rows(projectID: project.id, dataset: "sensor", last: 2).map(\.json) == [
                #"{"v":4}"#, #"{"v":5}"#,
            ])
        #expect(
            try await store.rows(projectID: project.id, dataset: "sensor", since: Date().addingTimeInterval(-60)).count
                == 3)
        #expect(try await store.rows(projectID: project.id, dataset: "sensor", after: recent[0].sequence).count == 2)
        // One append's rows exactly, whatever came after (what the live streams send for its event).
        #expect(
            try await store.rows(
                projectID: project.id, dataset: "sensor", after: recent[0].sequence - 1, through: recent[0].sequence
            ).map(\.json)
                == [#"{"v":3}"#])
        #expect(try await store.datasets(projectID: project.id).map(\.rows) == [5])
        #expect(try await store.deleteDataset(projectID: project.id, dataset: "sensor"))
        #expect(try await store.rows(projectID: project.id, dataset: "sensor").isEmpty)
        await store.close()
    }

    /// Issue 51, item 8: trees and annotations are listed a page at a time, after the last of a page.
    @Test(arguments: StoreTests.engines) func treesAndAnnotationsComeInPages(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "wood", name: "Wood", visibility: .public, ownerID: ana.id)
        for index in 0..<3 {
            _ = try await store.plantTree(
                projectID: project.id,
                Tree(
                    species: "Quercus suber", spacing: 5, x: Double(index) * 10, y: 0, z: 0, plantedBy: nil,
                    clientID: nil),
                plantedByID: ana.id, largestSpacing: 10)
            for room in ["a", "b"] {
                _ = try await store.placeAnnotation(
                    projectID: project.id,
                    Annotation(
                        room: room, x: 0, y: 0, z: Double(index), text: "\(room)\(index)", frame: 1, author: nil,
                        clientID: nil),
                    authorID: ana.id)
            }
        }
        let first = try await store.trees(projectID: project.id, limit: 2)
        let rest = try await store.trees(projectID: project.id, after: first.last?.id, limit: 2)
        #expect(first.count == 2 && rest.count == 1 && Set((first + rest).map(\.id)).count == 3)
        let page = try await store.annotations(projectID: project.id, room: "b", limit: 2)
        let next = try await store.annotations(projectID: project.id, room: "b", after: page.last?.id, limit: 2)
        #expect((page + next).map(\.text) == ["b0", "b1", "b2"])
        #expect(try await store.annotations(projectID: project.id).count == 6)
        #expect(try await store.usage(projectID: project.id).annotations == 6)
        #expect(try await store.usage(projectID: project.id).trees == 3)
        #expect(try await store.ownedProjectCount(accountID: ana.id) == 1)
        await store.close()
    }

    /// Issue 51, item 4: a window of large rows is read a page at a time and cut at a byte budget,
    /// the newest rows kept.
    @Test(arguments: StoreTests.engines) func aRowWindowStopsAtItsBytes(_ engine: Store.Engine) async throws {
        let store = try await store(engine)
        let ana = try await store.createAccount(username: "ana", passwordHash: "h")
        let project = try await store.createProject(slug: "hall", name: "Hall", visibility: .public, ownerID: ana.id)
        // Rows of one size: the number padded to four digits.
        let rows = (1...2_500).map { #"{"v":"\#(String(repeating: "x", count: 90 + 4 - String($0).count))\#($0)"}"# }
        _ = try await store.appendRows(projectID: project.id, dataset: "sensor", rows)
        let size = rows[0].utf8.count
        let cut = try await store.rowWindow(
            projectID: project.id, dataset: "sensor", last: 2_000, maximumBytes: 1_500 * size + size / 2)
        #expect(cut.truncated && cut.rows.count == 1_500)
        #expect(cut.rows.last?.json == rows.last && cut.rows.first?.json == rows[1_000])
        let whole = try await store.rowWindow(projectID: project.id, dataset: "sensor", last: 2_000, maximumBytes: .max)
        #expect(!whole.truncated && whole.rows.count == 2_000 && whole.rows.first?.json == rows[500])
        let older = try await store.rows(
            projectID: project.id, dataset: "sensor", last: 10, through: cut.rows[0].sequence - 1)
        #expect(older.last?.json == rows[999])
        let one = try await store.rowWindow(projectID: project.id, dataset: "sensor", last: 5, maximumBytes: 1)
        #expect(one.rows.map(\.json) == [rows.last] && one.truncated, "the newest row always comes")
        #expect(try await store.usage(projectID: project.id).rowBytes == rows.reduce(0) { $0 + $1.utf8.count })
        await store.close()
    }

    @Test(.enabled(if: StoreTests.engines.contains(.postgres)))
    func anotherInstanceSeesEveryEventThroughNotify() async throws {
        let url = try await StoreTests.freshPostgresDatabase()
        let writer = try await store(.postgres, url: url)
        let reader = try await store(.postgres, url: url)
        let feed = reader.eventFeed()
        let ana = try await writer.createAccount(username: "ana", passwordHash: "h")
        let project = try await writer.createProject(
            slug: "museum", name: "Museum", visibility: .public, ownerID: ana.id)
        // Give the reader's listener a moment to connect; what commits before it is caught up anyway.
        for version in 1...20 {
            _ = try await writer.saveSpec(
                projectID: project.id, name: "tour", body: Array("{}".utf8), contentHash: "h\(version)",
                mediaType: "application/json", authorID: ana.id)
        }
        let events = try await take(20, from: feed)
        #expect(events.map(\.detail) == (1...20).map { String($0) })
        #expect(events.allSatisfy { $0.projectID == project.id && $0.kind == .specSaved })
        await writer.close()
        await reader.close()
    }
}
