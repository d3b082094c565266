import ARVisSpatial
import ARVisSupport
import Logging
import NIOCore
import ServiceLifecycle

/// A room's video through Janus's VideoRoom plugin (`arvis serve --sfu URL`): the publisher sends
/// its camera once, to Janus, and Janus forwards it to every member the publisher has no direct
/// place for — all of them when ``ServerConfiguration/directViewers`` is 0.
///
/// Members talk to the relay as to a member whose id is ``memberID``: the publisher offers to it,
/// and the relay answers with Janus's answer; a member the publisher told to `wait` gets the relay's
/// offer (Janus's, for the publisher's feed) and answers it. ICE candidates go both ways the same
/// way; `bye` ends either. Janus's rooms require end-to-end encryption (`require_e2ee`), which
/// makes them forward each frame's payload untouched: the frame metadata the publisher appends
/// survives to every viewer.
///
/// The relay drives Janus over its HTTP API with one session per server, polled for Janus's
/// events; a session Janus lost (it restarted) is made anew, and its members told `bye`.
actor VideoRelay: Service {
    /// The member id signals to and from the relay carry.
    static let memberID = "sfu"
    /// The most ICE candidates kept for a peer whose Janus handle is not made yet.
    static let candidatesKept = 64
    /// How often the session is kept alive (Janus forgets it after 60 s).
    static let keepAliveInterval = Duration.seconds(20)

    /// A publisher's camera, sent to Janus.
    private struct Publication {
        var key: LiveHub.RoomKey
        var recipient: Recipient
        /// Which offer this is: a newer offer from the same publisher replaces it.
        var generation: Int
        var handle: Int64?
        var feed: Int64?
        /// Whether Janus has the camera (its peer connection is up): members can receive it.
        var live = false
        var candidates: [JSONValue] = []
    }

    /// A member receiving a publisher's camera from Janus.
    private struct Subscription {
        var key: LiveHub.RoomKey
        var publisher: String
        var recipient: Recipient
        var handle: Int64?
        /// Whether its handle is being made.
        var joining = false
        var candidates: [JSONValue] = []
    }

    private let client: JanusClient
    private let logger: Logger
    private var session: Int64?
    private var control: Int64?
    private var sessionTask: Task<(session: Int64, control: Int64), any Error>?
    private var rooms: [LiveHub.RoomKey: Int64] = [:]
    private var publications: [String: Publication] = [:]
    private var subscriptions: [String: Subscription] = [:]
    /// Janus handle → the member it serves, for Janus's events.
    private var owners: [Int64: String] = [:]
    private var generations = 0

    /// A relay through the Janus whose HTTP API is at `endpoint` (`api_secret`: `secret`).
    init(endpoint: String, secret: String?, logger: Logger) {
        client = JanusClient(endpoint: endpoint, secret: secret)
        self.logger = logger
    }

    /// Whether Janus answers at `endpoint`, with its VideoRoom plugin (for `arvis serve` to check
    /// before it starts).
    static func check(endpoint: String, secret: String?) async throws {
        try await JanusClient(endpoint: endpoint, secret: secret).checkVideoRoom()
    }

    // MARK: Signals from members

    /// A signal `member` addressed to the relay; returns why it is refused, or `nil`.
    func receive(_ signal: SignalMessage, from member: Room.Profile, recipient: Recipient, in key: LiveHub.RoomKey)
        -> String?
    {
        switch signal.kind {
        case "offer" where member.role == "publisher":
            stopPublishing(member.id)
            generations += 1
            publications[member.id] = Publication(key: key, recipient: recipient, generation: generations)
            let (generation, sdp) = (generations, signal.sdp ?? "")
            Task { await publish(member.id, generation: generation, offer: sdp) }
        case "answer" where subscriptions[member.id]?.handle != nil:
            Task { await start(member.id, answer: signal.sdp ?? "") }
        case "candidate" where publications[member.id] != nil || subscriptions[member.id] != nil:
            addCandidate(signal.candidate ?? .null, of: member.id)
        case "bye":
            stopPublishing(member.id)
            stopReceiving(member.id, tell: false)
        default:
            return
                "the SFU takes an offer from the room's publisher, and an answer from a member it sent an offer (then candidates, or bye)"
        }
        return nil
    }

    /// A publisher told `viewer` it has no place for it: the relay sends it the publisher's camera
    /// instead, once the publisher sends it to Janus.
    func forward(to viewer: String, recipient: Recipient, from publisher: String, in key: LiveHub.RoomKey) {
        stopReceiving(viewer, tell: false)
        subscriptions[viewer] = Subscription(key: key, publisher: publisher, recipient: recipient)
        Task { await subscribe(viewer) }
    }

    /// Whether the relay sends or receives video for member `id` (its signals to the SFU are for
    /// this instance).
    func knows(_ id: String) -> Bool { publications[id] != nil || subscriptions[id] != nil }

    /// A member left its room: whatever it sent or received through Janus ends.
    func left(_ memberID: String) {
        stopPublishing(memberID)
        for (viewer, subscription) in subscriptions where subscription.publisher == memberID {
            stopReceiving(viewer, tell: true)
        }
        stopReceiving(memberID, tell: false)
    }

    // MARK: Publishing

    private func publish(_ publisher: String, generation: Int, offer: String) async {
        func current() -> Publication? {
            publications[publisher].flatMap { $0.generation == generation ? $0 : nil }
        }
        do {
            guard let key = current()?.key else { return }
            let room = try await janusRoom(for: key)
            let (session, handle) = try await attach(for: publisher)
            guard current() != nil else { return detach(handle, in: session) }
            publications[publisher]?.handle = handle
            let (data, jsep) = try await client.message(
                session, handle: handle,
                body: ["request": "joinandconfigure", "room": .number(Double(room)), "ptype": "publisher"],
                jsep: ["type": "offer", "sdp": .string(offer), "e2ee": true])
            guard let feed = data["id"]?.identifier, let answer = jsep?["sdp"]?.string else {
                throw JanusError(reason: "joining as a publisher gave no feed id or answer")
            }
            guard let publication = current() else { return }
            publications[publisher]?.feed = feed
            flushCandidates(publication.candidates, handle: handle, in: session)
            publications[publisher]?.candidates = []
            send(publication.recipient, kind: "answer", sdp: answer)
            forwardWaiting(publisher)
        } catch {
            noteLost(error)
            guard let publication = current() else { return }
            failed(error, telling: publication.recipient, what: "sending the camera to the SFU")
            stopPublishing(publisher)
        }
    }

    /// Sends `publisher`'s camera to the members waiting for it, once Janus has both its feed id
    /// and its peer connection up (the two may come in either order).
    private func forwardWaiting(_ publisher: String) {
        guard let publication = publications[publisher], publication.live, publication.feed != nil else { return }
        for (viewer, subscription) in subscriptions where subscription.publisher == publisher {
            Task { await subscribe(viewer) }
        }
    }

    /// Ends a publisher's feed; the members receiving it are told `bye`, and get it again when the
    /// publisher sends it anew.
    private func stopPublishing(_ publisher: String) {
        guard let publication = publications.removeValue(forKey: publisher) else { return }
        if let handle = publication.handle, let session { detach(handle, in: session) }
        for (viewer, subscription) in subscriptions where subscription.publisher == publisher { pause(viewer) }
        if let room = rooms[publication.key], !publications.values.contains(where: { $0.key == publication.key }) {
            rooms[publication.key] = nil
            Task { await destroy(room) }
        }
    }

    // MARK: Receiving

    private func subscribe(_ viewer: String) async {
        guard let subscription = subscriptions[viewer], subscription.handle == nil, !subscription.joining,
            let publication = publications[subscription.publisher], publication.live, let feed = publication.feed,
            let room = rooms[subscription.key]
        else { return }
        subscriptions[viewer]?.joining = true
        do {
            let (session, handle) = try await attach(for: viewer)
            guard subscriptions[viewer]?.joining == true else { return detach(handle, in: session) }
            subscriptions[viewer]?.handle = handle
            subscriptions[viewer]?.joining = false
            let (_, jsep) = try await client.message(
                session, handle: handle,
                body: [
                    "request": "join", "room": .number(Double(room)), "ptype": "subscriber",
                    "streams": [["feed": .number(Double(feed)), "min_delay": 0, "max_delay": 0]],
                ])
            guard let offer = jsep?["sdp"]?.string else {
                throw JanusError(reason: "joining as a subscriber gave no offer")
            }
            guard subscriptions[viewer]?.handle == handle else { return }
            send(subscription.recipient, kind: "offer", sdp: offer)
        } catch {
            noteLost(error)
            guard subscriptions[viewer] != nil else { return }
            failed(error, telling: subscription.recipient, what: "receiving the camera from the SFU")
            stopReceiving(viewer, tell: true)
        }
    }

    private func start(_ viewer: String, answer: String) async {
        guard let subscription = subscriptions[viewer], let handle = subscription.handle, let session else { return }
        do {
            _ = try await client.message(
                session, handle: handle, body: ["request": "start"], jsep: ["type": "answer", "sdp": .string(answer)])
            guard subscriptions[viewer]?.handle == handle else { return }
            flushCandidates(subscription.candidates, handle: handle, in: session)
            subscriptions[viewer]?.candidates = []
        } catch {
            noteLost(error)
            guard subscriptions[viewer]?.handle == handle else { return }
            failed(error, telling: subscription.recipient, what: "starting the video from the SFU")
            stopReceiving(viewer, tell: true)
        }
    }

    /// Ends a member's connection to Janus but keeps it waiting for the publisher's camera (sent
    /// again when the publisher sends it anew): its handle goes (with the session, when there is
    /// one), and a member that was receiving or joining is told `bye`.
    private func pause(_ viewer: String) {
        guard let subscription = subscriptions[viewer] else { return }
        if let handle = subscription.handle, let session { detach(handle, in: session) }
        if subscription.handle != nil || subscription.joining { send(subscription.recipient, kind: "bye") }
        subscriptions[viewer]?.handle = nil
        subscriptions[viewer]?.joining = false
    }

    /// Ends what a member receives through Janus; `tell`: with a `bye` to it.
    private func stopReceiving(_ viewer: String, tell: Bool) {
        guard let subscription = subscriptions.removeValue(forKey: viewer) else { return }
        if let handle = subscription.handle, let session { detach(handle, in: session) }
        if tell { send(subscription.recipient, kind: "bye") }
    }

    // MARK: Candidates

    private func addCandidate(_ candidate: JSONValue, of member: String) {
        let handle = publications[member]?.feed != nil ? publications[member]?.handle : subscriptions[member]?.handle
        if let handle, let session {
            flushCandidates([candidate], handle: handle, in: session)
        } else if let publication = publications[member] {
            if publication.candidates.count < Self.candidatesKept { publications[member]?.candidates.append(candidate) }
        } else if let subscription = subscriptions[member], subscription.candidates.count < Self.candidatesKept {
            subscriptions[member]?.candidates.append(candidate)
        }
    }

    private nonisolated func flushCandidates(_ candidates: [JSONValue], handle: Int64, in session: Int64) {
        guard !candidates.isEmpty else { return }
        Task {
            for candidate in candidates {
                do { try await client.trickle(session, handle: handle, candidate: candidate) } catch {
                    logger.debug("Janus refused a candidate", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    // MARK: Janus's session, rooms and handles

    /// The session (made on first use) and a new handle in it, owned by `member`.
    private func attach(for member: String) async throws -> (session: Int64, handle: Int64) {
        let (session, _) = try await currentSession()
        let handle = try await client.attach(session)
        owners[handle] = member
        return (session, handle)
    }

    private func currentSession() async throws -> (session: Int64, control: Int64) {
        if let session, let control { return (session, control) }
        if let sessionTask { return try await sessionTask.value }
        let task = Task { [client] in
            let session = try await client.createSession()
            return (session: session, control: try await client.attach(session))
        }
        sessionTask = task
        defer { sessionTask = nil }
        let made = try await task.value
        (session, control) = (made.session, made.control)
        return made
    }

    /// The Janus room for an ARVis room, made on first use: VP8, payloads forwarded untouched.
    private func janusRoom(for key: LiveHub.RoomKey) async throws -> Int64 {
        if let room = rooms[key] { return room }
        let (session, control) = try await currentSession()
        let room = Int64.random(in: 1..<(1 << 52))
        _ = try await client.message(
            session, handle: control,
            body: [
                "request": "create", "room": .number(Double(room)), "description": "ARVis room",
                "is_private": true, "publishers": 4, "videocodec": "vp8", "require_e2ee": true,
                "audiolevel_ext": false, "fir_freq": 0,
            ])
        if let made = rooms[key] {
            Task { await destroy(room) }
            return made
        }
        rooms[key] = room
        return room
    }

    private func destroy(_ room: Int64) async {
        guard let session, let control else { return }
        do {
            _ = try await client.message(
                session, handle: control, body: ["request": "destroy", "room": .number(Double(room))])
        } catch {
            logger.debug("Janus did not destroy a room", metadata: ["error": "\(error)"])
        }
    }

    private func detach(_ handle: Int64, in session: Int64) {
        owners[handle] = nil
        Task { [client] in try? await client.detach(session, handle: handle) }
    }

    /// Makes a new session on the next request when `error` says Janus forgot the current one.
    private func noteLost(_ error: any Error) {
        if let error = error as? JanusError, error.isLostSession, let session { lose(session) }
    }

    /// Janus forgot `session`: its members are told `bye` (a publisher sends again, and its
    /// viewers get it through a new session).
    private func lose(_ lost: Int64) {
        guard session == lost else { return }
        logger.warning("Janus lost the session; making a new one")
        (session, control) = (nil, nil)
        rooms = [:]
        owners = [:]
        for viewer in subscriptions.keys { pause(viewer) }
        for publication in publications.values { send(publication.recipient, kind: "bye") }
        publications = [:]
    }

    // MARK: Janus's events

    /// Polls Janus's events and keeps the session alive until the server stops.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.pollEvents() }
                group.addTask { await self.keepAlive() }
            }
        }
        if let session { try? await client.destroy(session) }
    }

    private func pollEvents() async {
        while !Task.isCancelled {
            guard let session else {
                try? await Task.sleep(for: .milliseconds(200))
                continue
            }
            do {
                for event in try await client.poll(session) { handle(event) }
            } catch let error as JanusError where error.isLostSession {
                lose(session)
            } catch {
                guard !Task.isCancelled else { return }
                logger.warning("Janus's events could not be read", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func keepAlive() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.keepAliveInterval)
            guard let session else { continue }
            do { try await client.keepAlive(session) } catch let error as JanusError where error.isLostSession {
                lose(session)
            } catch {
                guard !Task.isCancelled else { return }
                logger.warning("Janus's session could not be kept alive", metadata: ["error": "\(error)"])
            }
        }
    }

    /// A publisher's peer connection up (`webrtcup`): the members waiting for its camera get it.
    /// A peer connection Janus closed (`hangup`, `detached`): its member is told `bye`.
    private func handle(_ event: JSONValue) {
        guard let handle = event["sender"]?.identifier, let member = owners[handle] else { return }
        if event["janus"]?.string == "webrtcup", publications[member]?.handle == handle {
            publications[member]?.live = true
            forwardWaiting(member)
        }
        guard ["hangup", "detached"].contains(event["janus"]?.string) else { return }
        owners[handle] = nil
        logger.info(
            "Janus closed a peer", metadata: ["member": "\(member)", "reason": "\(event["reason"]?.string ?? "")"])
        if publications[member]?.handle == handle {
            if let recipient = publications[member]?.recipient { send(recipient, kind: "bye") }
            stopPublishing(member)
        } else if subscriptions[member]?.handle == handle {
            stopReceiving(member, tell: true)
        }
    }

    // MARK: Messages to members

    private nonisolated func send(_ recipient: Recipient, kind: String, sdp: String? = nil) {
        recipient.send(LiveMessages.signal(from: Self.memberID, kind: kind, sdp: sdp))
    }

    private func failed(_ error: any Error, telling recipient: Recipient, what: String) {
        logger.warning("Janus failed \(what)", metadata: ["error": "\(error)"])
        recipient.send(LiveMessages.refused(clientID: nil, code: .sfuUnavailable, message: "\(what) failed: \(error)"))
        send(recipient, kind: "bye")
    }
}
