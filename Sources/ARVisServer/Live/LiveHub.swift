import ARVisPipeline
import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Tracing

/// Routes what happens in projects to the live clients connected to this server instance.
///
/// It follows the store's event feed — on PostgreSQL, the events of every instance — reads what
/// each event names from the store, makes its message once and queues it in the ``Outbox`` of every
/// client watching it: spec streams get new versions with the widgets that changed and the rows of
/// the datasets their charts follow; rooms get annotations, trees and anchors.
final class LiveHub: Service, Sendable {
    /// A spec stream's subject.
    struct SpecKey: Hashable, Sendable {
        var projectID: String
        var name: String
    }

    /// A room's subject.
    struct RoomKey: Hashable, Sendable {
        var projectID: String
        var room: String
    }

    /// What a live client was let in with, checked again whenever access to its project changes.
    struct Grant: Sendable {
        /// The project's id and slug.
        var projectID: String
        var slug: String
        /// The token it connected with, if any.
        var token: String?
        /// The account that token signed in, if any.
        var accountID: String?
        /// The role it must still hold (`nil`: read access, as anyone may have).
        var role: Role?
        /// The room link it joined a room with, if any (it holds while the link has not expired).
        var roomLink: String? = nil
    }

    /// Checks a grant again; throws the refusal a new connection would get.
    typealias Authorizer = @Sendable (Grant) async throws -> Void

    private struct Subscribers: Sendable {
        var next = 0
        var clients = 0
        var specs: [SpecKey: [Int: Outbox]] = [:]
        var rooms: [RoomKey: Room] = [:]
        var grants: [Int: (grant: Grant, outbox: Outbox)] = [:]
        /// Live connections open per account.
        var accounts: [String: Int] = [:]
    }

    /// The most members a room holds on one instance (a device and the experts watching it).
    let membersPerRoom: Int
    /// The most live connections one account holds open on one instance.
    let connectionsPerAccount: Int
    /// TURN credentials handed out, per account (or per room link's device): 10 at once, then one
    /// every 30 s — what renewing them in a few tabs takes, not a supply for others.
    let turnGrants = RateBuckets(rate: 1.0 / 30, burst: 10, capacity: 10_000)

    let store: Store
    let specs: SpecSnapshots
    /// Rooms' members, signals and poses across instances, on a shared store.
    let exchange: RoomExchange?
    private let events: AsyncStream<StoreEvent>
    private let subscribers = NIOLockedValueBox(Subscribers())
    /// Rooms' event messages by event sequence, shared by the live fan-out and every catch-up that
    /// replays the same events (an event's message never changes: a later one removes what it added).
    private let roomMessages = NIOLockedValueBox(
        LRUCache<Int64, Outbox.Message>(capacity: 10_000, weightCapacity: 16 << 20))
    /// Trees read with the first of their tap group's events, kept for the group's next events (a
    /// group's trees are logged together, so they arrive together).
    private let groupTrees = NIOLockedValueBox(LRUCache<String, ARVisStore.Tree>(capacity: 256, weightCapacity: 256))
    private let logger: Logger
    private let authorize: Authorizer
    /// How often clients that connected with a token are checked again, so the streams of a
    /// session that expired end too (revocations reach them at once, by their events).
    private let sessionCheckInterval: Duration

    /// - Parameters:
    ///   - sessionCheckInterval: how often clients that connected with a token are checked again.
    ///   - authorize: checks a client's grant again (throws the refusal a new connection would get).
    ///   - exchange: reaches the rooms' members on other instances (on a shared store).
    ///   - membersPerRoom: the most members of a room on this instance.
    ///   - connectionsPerAccount: the most live connections of one account on this instance.
    init(
        store: Store, logger: Logger, sessionCheckInterval: Duration = .seconds(60), exchange: RoomExchange? = nil,
        membersPerRoom: Int = 250, connectionsPerAccount: Int = 1_000, authorize: @escaping Authorizer = { _ in }
    ) {
        self.membersPerRoom = membersPerRoom
        self.connectionsPerAccount = connectionsPerAccount
        self.store = store
        self.exchange = exchange
        self.logger = logger
        self.sessionCheckInterval = sessionCheckInterval
        self.authorize = authorize
        specs = SpecSnapshots(store: store)
        events = store.eventFeed()
    }

    /// Delivers events until the server shuts down.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.checkSessionsPeriodically() }
                if let exchange = self.exchange {
                    group.addTask {
                        await exchange.run(
                            rooms: { key in self.subscribers.withLockedValue { $0.rooms[key] } },
                            allRooms: { self.subscribers.withLockedValue { Array($0.rooms.values) } })
                    }
                }
                for await event in self.events {
                    do { try await self.dispatchTraced(event) } catch {
                        self.logger.warning(
                            "live: event \(event.sequence) (\(event.kind.rawValue)) not delivered: \(error)")
                    }
                }
                group.cancelAll()
            }
        }
    }

    private func checkSessionsPeriodically() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: sessionCheckInterval)
            await recheck(
                subscribers.withLockedValue {
                    $0.grants.values.filter { $0.grant.token != nil || $0.grant.roomLink != nil }
                })
        }
    }

    // MARK: Subscriptions

    /// Counts a connection of the grant's account, refusing one past ``connectionsPerAccount``.
    private func admit(_ grant: Grant, _ state: inout Subscribers) throws {
        guard let account = grant.accountID, grant.roomLink == nil else { return }
        try check(account: account, state)
        state.accounts[account, default: 0] += 1
    }

    private func check(account: String, _ state: Subscribers) throws {
        guard state.accounts[account, default: 0] < connectionsPerAccount else {
            throw APIError(
                .tooManyRequests, .tooManyConnections,
                "an account holds at most \(connectionsPerAccount) live connections open: close some")
        }
    }

    /// Refuses a grant whose account holds as many live connections as it may already (an event
    /// stream asks before its answer starts, so the refusal is a `429`).
    func requireCapacity(for grant: Grant) throws {
        guard let account = grant.accountID, grant.roomLink == nil else { return }
        try subscribers.withLockedValue { try check(account: account, $0) }
    }

    /// Adds a client of a spec stream; returns its token for ``leave(_:)``.
    /// - Throws: ``APIError`` `429` past the account's connections.
    func watch(_ key: SpecKey, outbox: Outbox, grant: Grant) throws -> Int {
        try subscribers.withLockedValue { state in
            try admit(grant, &state)
            state.next += 1
            state.specs[key, default: [:]][state.next] = outbox
            state.grants[state.next] = (grant, outbox)
            state.clients += 1
            ServerMetrics.recordLiveClients(state.clients)
            return state.next
        }
    }

    /// Adds a member to a room (made on first use); returns the room and the member's token.
    /// - Throws: ``APIError`` `429` past the room's members or the account's connections.
    func join(_ key: RoomKey, member: Room.Member, grant: Grant) throws -> (room: Room, token: Int) {
        try subscribers.withLockedValue { state in
            if let open = state.rooms[key], open.memberCount >= membersPerRoom {
                throw APIError(
                    .tooManyRequests, .roomFull, "a room holds at most \(membersPerRoom) members: try later")
            }
            try admit(grant, &state)
            state.next += 1
            state.grants[state.next] = (grant, member.outbox)
            let room: Room
            if let open = state.rooms[key] {
                room = open
            } else {
                // A room opened here: the other instances say who is in it.
                room = Room(key: key, exchange: exchange)
                state.rooms[key] = room
                exchange?.ask(key)
            }
            room.add(member, token: state.next)
            state.clients += 1
            ServerMetrics.recordLiveClients(state.clients)
            return (room, state.next)
        }
    }

    /// Removes a client; an empty room is forgotten with its poses.
    func leave(_ token: Int) {
        subscribers.withLockedValue { state in
            state.clients -= 1
            ServerMetrics.recordLiveClients(state.clients)
            if let account = state.grants[token]?.grant.accountID, let open = state.accounts[account],
                state.grants[token]?.grant.roomLink == nil
            {
                state.accounts[account] = open > 1 ? open - 1 : nil
            }
            state.grants[token] = nil
            for (key, var outboxes) in state.specs where outboxes.removeValue(forKey: token) != nil {
                state.specs[key] = outboxes.isEmpty ? nil : outboxes
                return
            }
            for (key, room) in state.rooms where room.remove(token) {
                if room.isEmpty { state.rooms[key] = nil }
                return
            }
        }
    }

    private func specWatchers(_ key: SpecKey) -> [Outbox] {
        subscribers.withLockedValue { Array(($0.specs[key] ?? [:]).values) }
    }

    private func specWatchers(ofProject projectID: String) -> [SpecKey: [Outbox]] {
        subscribers.withLockedValue { state in
            state.specs.filter { $0.key.projectID == projectID }.mapValues { Array($0.values) }
        }
    }

    private func rooms(ofProject projectID: String, named room: String? = nil) -> [Room] {
        subscribers.withLockedValue { state in
            state.rooms.filter { $0.key.projectID == projectID && (room == nil || $0.key.room == room) }.map(\.value)
        }
    }

    // MARK: Events

    /// Dispatches `event` in a span continuing the trace of the request that recorded it (on
    /// whichever instance), when traces are on.
    private func dispatchTraced(_ event: StoreEvent) async throws {
        try await InstrumentationSystem.tracer.withSpan(
            "live \(event.kind.rawValue)", context: TraceParent.context(continuing: event.traceParent),
            ofKind: .consumer
        ) { span in
            span.attributes["arvis.event.sequence"] = Int(event.sequence)
            span.attributes["arvis.project"] = event.projectID
            try await dispatch(event)
        }
    }

    private func dispatch(_ event: StoreEvent) async throws {
        switch event.kind {
        case .specSaved, .specDeleted: try await specChanged(event)
        case .rowsAppended: try await rowsAppended(event)
        case .accessChanged: await accessChanged(event)
        default:
            let members = rooms(ofProject: event.projectID, named: Self.room(of: event))
            guard !members.isEmpty, let message = try await roomMessage(event) else { return }
            for member in members { member.broadcast(message) }
        }
    }

    /// The room an event is for: an annotation's own; `nil` (every room of the project) for trees and anchors.
    private static func room(of event: StoreEvent) -> String? {
        event.kind == .annotationAdded || event.kind == .annotationDeleted ? event.detail : nil
    }

    /// A room's message for an event, with what it names read from the store; `nil` when the event
    /// is not a room's or what it names is gone again.
    private func roomMessage(_ event: StoreEvent) async throws -> Outbox.Message? {
        if let made = roomMessages.withLockedValue({ $0.value(for: event.sequence) }) { return made }
        guard let text = try await roomText(event) else { return nil }
        let message = Outbox.Message.ordered(stream: "events", cursor: event.sequence, text: ByteBuffer(string: text))
        roomMessages.withLockedValue { $0.insert(message, weight: message.size, for: event.sequence) }
        return message
    }

    /// The text of ``roomMessage(_:)``, read from the store.
    private func roomText(_ event: StoreEvent) async throws -> String? {
        let text: String
        switch event.kind {
        case .annotationAdded:
            guard let annotation = try await store.annotation(projectID: event.projectID, id: event.subject) else {
                return nil
            }
            text = LiveMessages.annotation(annotation, sequence: event.sequence)
        case .treePlanted:
            guard let tree = try await plantedTree(event) else { return nil }
            text = LiveMessages.tree(tree, sequence: event.sequence)
        case .anchorSaved:
            guard let anchor = try await store.anchor(projectID: event.projectID, id: event.subject) else { return nil }
            text = LiveMessages.anchor(anchor, sequence: event.sequence)
        case .annotationDeleted, .treeRemoved, .anchorDeleted:
            text = LiveMessages.removal(event.kind.rawValue, id: event.subject, sequence: event.sequence)
        case .specSaved, .specDeleted, .rowsAppended, .accessChanged:
            return nil
        }
        return text
    }

    /// The tree a `treePlanted` event names: read with its group's other trees, which the group's
    /// next events then find without a read.
    private func plantedTree(_ event: StoreEvent) async throws -> ARVisStore.Tree? {
        let key = event.projectID + "/" + event.subject
        if let kept = groupTrees.withLockedValue({ cache in
            defer { cache.remove(key) }
            return cache.value(for: key)
        }) {
            return kept
        }
        let trees = try await store.treeAndGroup(projectID: event.projectID, id: event.subject)
        groupTrees.withLockedValue { cache in
            for tree in trees where tree.id != event.subject {
                cache.insert(tree, weight: 1, for: event.projectID + "/" + tree.id)
            }
        }
        return trees.first { $0.id == event.subject }
    }

    private func specChanged(_ event: StoreEvent) async throws {
        let key = SpecKey(projectID: event.projectID, name: event.subject)
        if event.kind == .specDeleted { specs.forgetDeleted(key) }
        let watchers = specWatchers(key)
        guard !watchers.isEmpty else { return }
        guard event.kind == .specSaved, let number = Int(event.detail ?? "") else {
            let message = Outbox.Message.restart(
                stream: "spec", text: ByteBuffer(string: LiveMessages.deleted(name: key.name)))
            for watcher in watchers { watcher.send(message) }
            return
        }
        guard let update = try await specs.update(key, to: number, from: number - 1) else { return }
        for watcher in watchers { watcher.send(update) }
    }

    /// Checks again the access of every client of the project the event names (of the one account
    /// it names, or all), and closes those that lost it with ``LiveClose/revoked(_:)``.
    private func accessChanged(_ event: StoreEvent) async {
        await recheck(
            subscribers.withLockedValue { state in
                state.grants.values.filter { entry in
                    entry.grant.projectID == event.projectID
                        && (event.subject == "*" || entry.grant.accountID == event.subject)
                }
            })
    }

    /// Checks the access of `clients` again and closes those that lost it.
    private func recheck(_ clients: [(grant: Grant, outbox: Outbox)]) async {
        // Clients of one project with the same token and role share one answer (a public spec's anonymous viewers).
        var answers: [String: String?] = [:]
        for (grant, outbox) in clients where !outbox.isClosing {
            let key = "\(grant.projectID) \(grant.role?.rawValue ?? "-") \(grant.token ?? "") \(grant.roomLink ?? "")"
            if answers[key] == nil {
                do {
                    try await authorize(grant)
                    answers[key] = .some(nil)
                } catch let refusal as APIError {
                    answers[key] = .some(refusal.message)
                } catch {
                    logger.warning("live: access of a client of \(grant.slug) could not be checked again: \(error)")
                    continue
                }
            }
            if let refusal = answers[key] ?? nil { outbox.close(.revoked(refusal)) }
        }
    }

    private func rowsAppended(_ event: StoreEvent) async throws {
        let bounds = (event.detail ?? "").split(separator: "-").compactMap { Int64($0) }
        guard bounds.count == 2, bounds[0] >= 1, bounds[0] <= bounds[1],
            bounds[1] - bounds[0] < Int64(Store.rowsPerDataset)
        else { return }
        var rows: [DatasetRow]?
        for (key, watchers) in specWatchers(ofProject: event.projectID) {
            guard let use = try await specs.latest(key)?.digest.datasets[event.subject] else { continue }
            if rows == nil {
                rows = try await store.rows(
                    projectID: event.projectID, dataset: event.subject, after: bounds[0] - 1, through: bounds[1])
            }
            guard let rows, let last = rows.last else { return }
            let text = ByteBuffer(
                string: LiveMessages.rows(dataset: event.subject, widgets: use.widgets, rows: rows, reset: false))
            for watcher in watchers {
                watcher.send(.ordered(stream: "rows:" + event.subject, cursor: last.sequence, text: text))
            }
        }
    }

    // MARK: Catching up

    /// The most events a room member resuming is replayed; one further behind gets the room afresh.
    static let replayLimit = 5_000
    /// The most bytes of events a room member resuming is replayed; past them it gets the room afresh.
    static let replayBytes = 4 << 20

    /// What a member joining a room is sent first: `welcome` (the `introduction`, with the room's annotations, or — for a member resuming after event `since` — the events it
    /// missed, when there are not too many).
    func roomCatchUp(_ key: RoomKey, introducing introduction: Room.Introduction, after since: Int64?)
        async throws -> [Outbox.Message]
    {
        let sequence = try await store.lastEventSequence()
        // A member holding an event older than the log keeps may have missed purged ones: afresh.
        if let since, since <= sequence, since >= (try await store.firstEventSequence()) - 1 {
            let missed = try await store.events(projectID: key.projectID, after: since, limit: Self.replayLimit + 1)
            if missed.count <= Self.replayLimit {
                var messages: [Outbox.Message] = [
                    .ordered(
                        stream: "events", cursor: since,
                        text: ByteBuffer(
                            string: LiveMessages.welcome(
                                room: key.room, sequence: since, annotations: nil, introduction: introduction))
                    )
                ]
                var bytes = 0
                for event in missed where Self.room(of: event) == nil || Self.room(of: event) == key.room {
                    guard let message = try await roomMessage(event) else { continue }
                    bytes += message.size
                    guard bytes <= Self.replayBytes else { break }
                    messages.append(message)
                }
                if bytes <= Self.replayBytes { return messages }
            }
        }
        let annotations = try await store.annotations(projectID: key.projectID, room: key.room)
        let text = LiveMessages.welcome(
            room: key.room, sequence: sequence, annotations: annotations, introduction: introduction)
        return [.ordered(stream: "events", cursor: sequence, text: ByteBuffer(string: text))]
    }

    /// The most versions a resuming client is sent one by one; one further behind gets the latest.
    static let versionReplayLimit = 32
    /// The most bytes of versions a resuming client is sent one by one; past them it gets the latest
    /// version (with what changed since the one it holds) instead.
    static let versionReplayBytes = 4 << 20

    /// Every version after `version` up to `newest`, each as an update from the one before; empty
    /// when they add up to more than ``versionReplayBytes``.
    private func replay(_ key: SpecKey, from version: Int, to newest: Int) async throws -> [Outbox.Message] {
        var messages: [Outbox.Message] = []
        var bytes = 0
        for next in (version + 1)...newest {
            guard let update = try await specs.update(key, to: next, from: next - 1) else { continue }
            bytes += update.size
            guard bytes <= Self.versionReplayBytes else { return [] }
            messages.append(update)
        }
        return messages
    }

    /// What a client connecting to a spec stream is sent first: the current version (with what
    /// changed since `version`, the version it holds; nothing when it holds the current one), or,
    /// up to ``versionReplayLimit`` versions and ``versionReplayBytes`` behind, each version it missed; then the rows of each dataset
    /// its charts follow (the window, or what came after the row sequence it holds).
    func catchUp(_ key: SpecKey, holding version: Int?, rowsAfter: [String: Int64]) async throws -> [Outbox.Message] {
        guard let latest = try await specs.latest(key) else {
            throw APIError.notFound("no spec '\(key.name)' in this project yet; it streams from its first version")
        }
        var messages: [Outbox.Message] = []
        let newest = latest.version.version
        if let version, version == newest {
            messages.append(.holding(stream: "spec", cursor: Int64(version)))
        } else if let version, version > 0, version < newest, newest - version <= Self.versionReplayLimit {
            // A client resuming gets every version it missed, in order, as if it had stayed, unless
            // they are too large: then the latest, as to a client further behind.
            messages = try await replay(key, from: version, to: newest)
        }
        if messages.isEmpty, let update = try await specs.update(key, to: newest, from: version) {
            messages.append(update)
        }
        for (name, use) in latest.digest.datasets.sorted(by: { $0.key < $1.key }) {
            let after = rowsAfter[name]
            let since = use.link.seconds.map { Date().addingTimeInterval(-$0) }
            let rows = try await store.rows(
                projectID: key.projectID, dataset: name, last: use.link.rowLimit, since: since, after: after ?? 0,
                maximumBytes: DatasetRoutes.windowBytes)
            let text = ByteBuffer(
                string: LiveMessages.rows(dataset: name, widgets: use.widgets, rows: rows, reset: after == nil))
            messages.append(.ordered(stream: "rows:" + name, cursor: rows.last?.sequence ?? after ?? 0, text: text))
        }
        return messages
    }
}

/// Versions of specs as live clients need them: read, as canonical JSON, with their widget digests;
/// the latest of each spec and a few recent ones kept.
final class SpecSnapshots: Sendable {
    /// A version read for the live streams.
    struct Snapshot: Sendable {
        var version: SpecVersion
        /// The spec as the messages carry it: the spec writer's canonical JSON, made once per version.
        var json: String
        var digest: WidgetDigest
        /// About the memory it holds: its JSON, and the document its digest keeps (about twice the JSON).
        var weight: Int
    }

    private let store: Store
    /// The versions read, the latest of each spec and a few recent ones; large specs keep fewer.
    private let kept = NIOLockedValueBox(LRUCache<String, Snapshot>(capacity: 512, weightCapacity: 24 << 20))
    /// The update messages made, shared by every client that needs the same one (the clients of a
    /// spec catching up from the same version).
    private let messages = NIOLockedValueBox(LRUCache<String, ByteBuffer>(capacity: 256, weightCapacity: 32 << 20))

    /// Where versions are read and their messages made: a large spec takes a moment of CPU, which
    /// must not hold up the server's tasks.
    private let pool = WorkPool(
        "spec snapshots", limits: .init(running: WorkPool.backgroundThreads, perClient: .max, waiting: .max))

    init(store: Store) { self.store = store }

    /// Forgets every version of a deleted spec (one created again counts from 1 with other content).
    func forgetDeleted(_ key: LiveHub.SpecKey) {
        let prefix = "\(key.projectID)/\(key.name)/"
        kept.withLockedValue { $0.removeAll { $0.hasPrefix(prefix) } }
        messages.withLockedValue { $0.removeAll { $0.hasPrefix(prefix) } }
    }

    /// The latest version of a spec, or `nil` when it has none (the store's read cache knows which
    /// is the latest, and forgets it on every save, from any instance).
    func latest(_ key: LiveHub.SpecKey) async throws -> Snapshot? {
        guard let version = try await store.spec(projectID: key.projectID, name: key.name) else { return nil }
        return try await remember(key, version)
    }

    /// The message taking a client from version `old` (`nil`: none) to version `new`.
    func update(_ key: LiveHub.SpecKey, to new: Int, from old: Int?) async throws -> Outbox.Message? {
        guard let current = try await snapshot(key, new) else { return nil }
        let previous = try await old.asyncMap { try await snapshot(key, $0) } ?? nil
        let name =
            Self.name(key, new) + "/\(old ?? 0)/\(current.version.contentHash)/\(previous?.version.contentHash ?? "")"
        if let made = messages.withLockedValue({ $0.value(for: name) }) {
            return .ordered(stream: "spec", cursor: Int64(new), text: made)
        }
        let text = try await pool.run(client: nil) {
            let (changed, removed) = current.digest.changes(since: previous?.digest)
            return ByteBuffer(
                string: LiveMessages.spec(
                    name: key.name, version: current.version, changed: changed,
                    redrawn: current.digest.redrawn(since: previous?.digest), removed: removed, json: current.json))
        }
        messages.withLockedValue { $0.insert(text, weight: text.readableBytes, for: name) }
        return .ordered(stream: "spec", cursor: Int64(new), text: text)
    }

    /// Version `number` of a spec, or `nil` when there is no such version.
    private func snapshot(_ key: LiveHub.SpecKey, _ number: Int) async throws -> Snapshot? {
        guard number >= 1 else { return nil }
        if let hit = kept.withLockedValue({ $0.value(for: Self.name(key, number)) }) { return hit }
        guard let version = try await store.spec(projectID: key.projectID, name: key.name, version: number) else {
            return nil
        }
        return try await remember(key, version)
    }

    private func remember(_ key: LiveHub.SpecKey, _ version: SpecVersion) async throws -> Snapshot {
        let name = Self.name(key, version.version)
        if let hit = kept.withLockedValue({ $0.value(for: name) }), hit.version.contentHash == version.contentHash {
            return hit
        }
        let snapshot = try await pool.run(client: nil) {
            let document = try version.document()
            var bare = version
            bare.body = nil
            let json = SpecWriter.compactJSON(document)
            return Snapshot(
                version: bare, json: json, digest: WidgetDigest(document),
                weight: json.utf8.count * 3)
        }
        kept.withLockedValue { $0.insert(snapshot, weight: snapshot.weight, for: name) }
        return snapshot
    }

    private static func name(_ key: LiveHub.SpecKey, _ version: Int) -> String {
        "\(key.projectID)/\(key.name)/\(version)"
    }
}
