import ARVisClient
import ARVisTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOWebSocket
import Testing
import WSCore

@testable import ARVisServer

/// A session description as a browser writes one (shortened): it starts with v=0 and has a media line.
private let sessionDescription =
    "v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\na=sendonly\r\na=rtpmap:96 VP8/90000\r\n"

/// A room's `signal` message to `to`, with more `fields`.
private func signal(_ to: String, _ kind: String, _ fields: [String: Any] = [:]) throws -> String {
    var message: [String: Any] = ["type": "signal", "to": to, "kind": kind]
    message.merge(fields) { $1 }
    return String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
}

/// WebRTC signalling through a room: who is in it, and offers, answers and candidates relayed to
/// the one member they are addressed to.
struct SignallingTests: ServerTesting {
    let scratch = ScratchFolder("server-signalling")

    private static let offer = sessionDescription
    /// A public project, its owner's token, an editor's and a viewer's.
    private func room(_ client: any TestClientProtocol) async throws -> (slug: String, owner: String, viewer: String) {
        let owner = try await signIn(client, "ana")
        let slug = try await createProject(client, owner, name: "Garage", visibility: "public")
        let viewer = try await signIn(client, "vic")
        _ = try await client.execute(
            uri: "/api/v1/projects/\(slug)/members/vic", method: .put, headers: owner,
            body: try json(["role": "viewer"]))
        return (slug, token(in: owner), token(in: viewer))
    }

    /// A member joining room `car` (its publisher with `publisher`), and the id its welcome gives it.
    private func join(_ port: Int, _ slug: String, token: String, publisher: Bool = false) async throws -> (
        socket: TestSocket, id: String
    ) {
        let socket = TestSocket(
            port: port, path: "/live/\(slug)/rooms/car" + (publisher ? "?role=publisher" : ""), token: token)
        return (socket, try #require(try await socket.next(ofType: "welcome")["you"] as? String))
    }

    @Test func membersKnowWhoIsInTheRoomAndWhoComesAndGoes() async throws {
        try await withServer(live: true) { client in
            let (slug, owner, viewer) = try await room(client)
            let port = try #require(client.port)
            let device = TestSocket(
                port: port, path: "/live/\(slug)/rooms/car?role=publisher", token: owner, presence: true)
            let deviceWelcome = try await device.next(ofType: "welcome")
            let deviceID = try #require(deviceWelcome["you"] as? String)
            #expect((deviceWelcome["members"] as? [Any])?.isEmpty == true)

            let expert = TestSocket(port: port, path: "/live/\(slug)/rooms/car", token: viewer, presence: true)
            let welcome = try await expert.next(ofType: "welcome")
            let expertID = try #require(welcome["you"] as? String)
            let members = try #require(welcome["members"] as? [[String: Any]])
            #expect(members.count == 1)
            #expect(members.first?["id"] as? String == deviceID && members.first?["role"] as? String == "publisher")
            #expect(members.first?["name"] as? String == "ana")
            #expect(welcome["iceTransportPolicy"] as? String == "all", "any path by default")
            let joined = try #require(try await device.next(ofType: "memberJoined")["member"] as? [String: Any])
            #expect(joined["id"] as? String == expertID && joined["role"] as? String == "member")
            #expect(expertID != deviceID && expertID.count == 16)

            try await expert.close()
            #expect(try await device.next(ofType: "memberLeft")["id"] as? String == expertID)
        }
    }

    @Test func signalsReachTheMemberTheyAreForAndNoOther() async throws {
        try await withServer(live: true) { client in
            let (slug, owner, viewer) = try await room(client)
            let port = try #require(client.port)
            let (device, deviceID) = try await join(port, slug, token: owner, publisher: true)
            let (expert, expertID) = try await join(port, slug, token: viewer)
            let (bystander, _) = try await join(port, slug, token: viewer)

            try await device.send(try signal(expertID, "offer", ["sdp": Self.offer]))
            let offer = try await expert.next(ofType: "signal")
            #expect(offer["from"] as? String == deviceID && offer["kind"] as? String == "offer")
            #expect(offer["sdp"] as? String == Self.offer && offer["to"] == nil)

            // A viewer answers and sends its candidates: signalling is not a change to the project.
            let answer = Self.offer.replacingOccurrences(of: "a=sendonly", with: "a=recvonly")
            try await expert.send(try signal(deviceID, "answer", ["sdp": answer]))
            let candidate: [String: Any] = [
                "candidate": "candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host", "sdpMid": "0", "sdpMLineIndex": 0,
            ]
            try await expert.send(try signal(deviceID, "candidate", ["candidate": candidate]))
            try await expert.send(try signal(deviceID, "candidate", ["candidate": NSNull()]))
            #expect(try await device.next(ofType: "signal")["sdp"] as? String == answer)
            let relayed = try #require(try await device.next(ofType: "signal")["candidate"] as? [String: Any])
            #expect(relayed["candidate"] as? String == candidate["candidate"] as? String)
            let end = try await device.next(ofType: "signal")
            #expect(end["kind"] as? String == "candidate" && end["candidate"] is NSNull)
            #expect(try await bystander.staysQuiet(), "nobody else hears a signal")
        }
    }

    @Test func badSignalsAreRefusedAndTheConnectionStays() async throws {
        try await withServer(live: true) { client in
            let (slug, owner, viewer) = try await room(client)
            let port = try #require(client.port)
            let (device, _) = try await join(port, slug, token: owner, publisher: true)
            let (expert, expertID) = try await join(port, slug, token: viewer)

            let oversized = Self.offer + String(repeating: "a=x-padding\r\n", count: 3_000)
            for (message, code) in [
                (try signal("0123456789abcdef", "offer", ["sdp": Self.offer, "clientId": "c1"]), "unknownMember"),
                (try signal(expertID, "offer", ["sdp": oversized, "clientId": "c2"]), "invalidSignal"),
                (try signal(expertID, "offer", ["sdp": "hello", "clientId": "c3"]), "invalidSignal"),
                (try signal(expertID, "answer", ["clientId": "c4"]), "invalidSignal"),
                (try signal(expertID, "candidate", ["candidate": ["sdpMid": "0"], "clientId": "c5"]), "invalidSignal"),
                (try signal(expertID, "dance", ["clientId": "c6"]), "invalidSignal"),
            ] {
                try await device.send(message)
                let refused = try await device.next(ofType: "refused")
                #expect(refused["code"] as? String == code, "\(refused)")
                #expect((refused["message"] as? String)?.isEmpty == false)
            }
            #expect(try await expert.staysQuiet(), "the expert heard none of the refused signals")
            // The connection stays, and still relays what is right.
            try await device.send(try signal(expertID, "bye"))
            #expect(try await expert.next(ofType: "signal")["kind"] as? String == "bye")
            try await device.send(try signal(expertID, "wait"))
            #expect(try await expert.next(ofType: "signal")["kind"] as? String == "wait", "no place for it yet")
        }
    }

    @Test func aMarkInThePictureReachesEveryMemberAndIsNotStored() async throws {
        try await withServer(live: true) { client in
            let (slug, owner, viewer) = try await room(client)
            let port = try #require(client.port)
            let (device, _) = try await join(port, slug, token: owner, publisher: true)
            let (expert, _) = try await join(port, slug, token: owner)
            let (watcher, _) = try await join(port, slug, token: viewer)
            try await expert.send(#"{"type": "mark", "tap": [0.25, 0.75], "text": "this bolt", "clientId": "m1"}"#)
            for member in [device, expert, watcher] {
                let mark = try await member.next(ofType: "mark")
                #expect(mark["tap"] as? [Double] == [0.25, 0.75] && mark["text"] as? String == "this bolt")
                #expect(mark["author"] as? String == "ana" && mark["clientId"] as? String == "m1")
                #expect((mark["id"] as? String)?.isEmpty == false && mark["at"] is Int)
            }
            let stored = try await apiClient(client, token: owner).listAnnotations(
                path: .init(project: slug), query: .init(room: "car")
            ).ok.body.json.annotations
            #expect(stored.isEmpty, "a mark is not stored")
            // Marking needs an editor; a tap outside the picture breaks the protocol.
            try await watcher.send(#"{"type": "mark", "tap": [0.5, 0.5]}"#)
            #expect(try await watcher.closeFrame()?.closeCode == .policyViolation)
            try await expert.send(#"{"type": "mark", "tap": [1.5, 0.5]}"#)
            #expect(try await expert.closeFrame()?.closeCode == .dataInconsistentWithMessage)
        }
    }

    /// Where the project's frame lies in the publisher's session reaches every member (the Studio
    /// draws the project's bubbles with it); only the publisher may say it.
    @Test func theProjectsFrameInTheDevicesSessionReachesEveryMember() async throws {
        try await withServer(live: true) { client in
            let (slug, owner, viewer) = try await room(client)
            let port = try #require(client.port)
            let (device, _) = try await join(port, slug, token: owner, publisher: true)
            let (expert, _) = try await join(port, slug, token: owner)
            let (watcher, _) = try await join(port, slug, token: viewer)
            try await device.send(
                #"{"type": "projectFrame", "position": [1, 0, -2], "orientation": [0, 0.6, 0, 0.8]}"#)
            for member in [expert, watcher] {
                let frame = try await member.next(ofType: "projectFrame")
                #expect(frame["position"] as? [Double] == [1, 0, -2])
                #expect(frame["orientation"] as? [Double] == [0, 0.6, 0, 0.8])
            }
            try await device.send(#"{"type": "projectFrame"}"#)
            #expect(try await expert.next(ofType: "projectFrame")["position"] == nil, "the device lost the frame")
            try await expert.send(#"{"type": "projectFrame", "position": [0, 0, 0], "orientation": [0, 0, 0, 1]}"#)
            #expect(try await expert.closeFrame()?.closeCode == .policyViolation, "only the publisher says it")
        }
    }

    @Test func turnCredentialsAreCoturnsRESTScheme() throws {
        var configuration = ServerConfiguration()
        configuration.iceServers = [
            "stun:turn.example:3478", "turn:turn.example:3478?transport=udp", "turns:turn.example:5349",
        ]
        configuration.turnSecret = "north-wind"
        configuration.turnCredentialLifetime = 12 * 3_600
        let granted = try #require(
            ICEServer.withTURN(
                for: "0123456789abcdef", in: configuration, now: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(granted.servers.first == ICEServer(urls: ["stun:turn.example:3478"]))
        #expect(granted.expires == 1_700_043_200)
        // Python: base64(hmac.new(b"north-wind", b"1700043200:0123456789abcdef", sha1).digest()).
        #expect(
            granted.servers.last
                == ICEServer(
                    urls: ["turn:turn.example:3478?transport=udp", "turns:turn.example:5349"],
                    username: "1700043200:0123456789abcdef", credential: "Tywgu/C6tMeKnCsQvosgRBJgqdk="))
        #expect(ICEServer.stun(in: configuration) == [ICEServer(urls: ["stun:turn.example:3478"])])
        configuration.turnSecret = nil
        #expect(ICEServer.withTURN(for: "x", in: configuration) == nil, "no TURN without a secret to sign with")
        #expect(!ICEServer.offersTURN(in: configuration))
        for url in ["http://turn.example", "turn:", "stun:a b", "turn:host/path"] {
            #expect(ServerConfiguration.iceServerProblem(url) != nil, "\(url)")
        }
        #expect(ServerConfiguration.iceServerProblem("turn:[::1]:3478?transport=tcp") == nil)
    }

    /// A welcome carries the STUN servers only; TURN credentials come to a member that asks (as it
    /// starts video), valid 20 minutes by default, its own, and only so many per account.
    @Test func turnCredentialsComeOnlyWhenAskedForAndNotTooOften() async throws {
        try await withServer(
            live: true,
            configure: {
                $0.iceServers = ["stun:127.0.0.1:3478", "turn:127.0.0.1:3478"]
                $0.turnSecret = "north-wind"
                $0.relayOnly = true
            }
        ) { client in
            let (slug, owner, _) = try await room(client)
            let port = try #require(client.port)
            let device = TestSocket(port: port, path: "/live/\(slug)/rooms/car?role=publisher", token: owner)
            let welcome = try await device.next(ofType: "welcome")
            let you = try #require(welcome["you"] as? String)
            let servers = try #require(welcome["iceServers"] as? [[String: Any]])
            #expect(servers.count == 1 && servers.first?["urls"] as? [String] == ["stun:127.0.0.1:3478"])
            #expect(servers.first?["username"] == nil, "no TURN credentials before video starts")
            #expect(welcome["turn"] as? Bool == true)
            #expect(welcome["iceTransportPolicy"] as? String == "relay", "--relay-only: video through TURN only")

            try await device.send(#"{"type": "turnCredentials"}"#)
            let granted = try await device.next(ofType: "turnCredentials")
            let turn = try #require((granted["iceServers"] as? [[String: Any]])?.last)
            let username = try #require(turn["username"] as? String)
            #expect(username.hasSuffix(":" + you))
            let expiry = try #require(Double(username.split(separator: ":")[0]))
            #expect(abs(expiry - Date().timeIntervalSince1970 - 20 * 60) < 60)
            #expect(granted["expires"] as? Double == expiry)
            #expect(turn["credential"] as? String == ICEServer.credential(username, secret: "north-wind"))

            // Ten at once, then one every 30 s, per account.
            for _ in 0..<9 {
                try await device.send(#"{"type": "turnCredentials"}"#)
                _ = try await device.next(ofType: "turnCredentials")
            }
            try await device.send(#"{"type": "turnCredentials"}"#)
            let refused = try await device.next(ofType: "refused")
            #expect(refused["code"] as? String == "tooManyCredentials")
        }
    }

    @Test func aMemberCannotSignalItself() async throws {
        try await withServer(live: true) { client in
            let (slug, owner, _) = try await room(client)
            let port = try #require(client.port)
            let (device, deviceID) = try await join(port, slug, token: owner, publisher: true)
            try await device.send(try signal(deviceID, "offer", ["sdp": Self.offer]))
            #expect(try await device.next(ofType: "refused")["code"] as? String == "unknownMember")
        }
    }
}

/// Video through an SFU: the server drives Janus (here a fake of its HTTP API) for the room.
struct SFUSignallingTests: ServerTesting {
    let scratch = ScratchFolder("server-sfu")

    private static let offer = sessionDescription

    /// A device publishing in room `car` of a new project and an expert in it, on a server whose
    /// SFU is `janus`; the device's welcome first.
    private func withRoom(
        _ janus: String,
        _ body:
            @Sendable @escaping (
                _ device: TestSocket, _ expert: TestSocket, _ expertID: String, _ welcome: [String: Any]
            )
            async throws -> Void
    ) async throws {
        try await withServer(live: true, configure: { $0.sfu = janus }) { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Garage", visibility: "public")
            let port = try #require(client.port)
            let device = TestSocket(port: port, path: "/live/\(slug)/rooms/car?role=publisher", token: token(in: owner))
            let welcome = try await device.next(ofType: "welcome")
            let expert = TestSocket(port: port, path: "/live/\(slug)/rooms/car", token: token(in: owner))
            let expertID = try #require(try await expert.next(ofType: "welcome")["you"] as? String)
            try await body(device, expert, expertID, welcome)
        }
    }

    @Test func thePublishersCameraGoesThroughJanusToTheMembersItToldToWait() async throws {
        let janus = FakeJanus()
        try await janus.serve { api in
            try await withRoom(api) { device, expert, expertID, welcome in
                let sfu = try #require(welcome["sfu"] as? [String: Any])
                #expect(sfu["id"] as? String == "sfu" && sfu["directViewers"] as? Int == 0)

                // The device has no place for the expert: the SFU sends it the video instead.
                try await device.send(try signal(expertID, "wait"))
                try await device.send(try signal("sfu", "offer", ["sdp": Self.offer]))
                try await device.send(
                    try signal(
                        "sfu", "candidate",
                        ["candidate": ["candidate": "candidate:1 1 udp 1 127.0.0.1 9 typ host", "sdpMid": "0"]]))
                let answer = try await device.next(ofType: "signal")
                #expect(answer["from"] as? String == "sfu" && answer["kind"] as? String == "answer")
                #expect(answer["sdp"] as? String == FakeJanus.answer)

                let offer = try await expert.next(ofType: "signal")
                #expect(
                    offer["from"] as? String == "sfu" && offer["kind"] as? String == "offer", "not a wait: \(offer)")
                #expect(offer["sdp"] as? String == FakeJanus.offer)
                try await expert.send(try signal("sfu", "answer", ["sdp": Self.offer]))
                try await expert.send(try signal("sfu", "candidate", ["candidate": NSNull()]))

                try await waitUntil { await janus.requests.contains { $0.request == "start" } }
                let requests = await janus.requests
                let publish = try #require(requests.first { $0.request == "joinandconfigure" })
                #expect(publish.sdp == Self.offer && publish.e2ee, "payloads untouched: end-to-end encrypted")
                #expect(requests.first { $0.request == "start" }?.sdp == Self.offer)
                try await waitUntil { await janus.requests.filter { $0.kind == "trickle" }.count == 2 }
                #expect(await janus.pluginRequests.prefix(3) == ["create", "joinandconfigure", "join"])

                // A member offers nothing to the SFU; the device leaving ends the expert's video.
                try await expert.send(try signal("sfu", "offer", ["sdp": Self.offer, "clientId": "x"]))
                #expect(try await expert.next(ofType: "refused")["code"] as? String == "invalidSignal")
                try await device.close()
                let bye = try await expert.next(ofType: "signal")
                #expect(bye["from"] as? String == "sfu" && bye["kind"] as? String == "bye")
            }
        }
    }

    @Test func aJanusThatForgotItsSessionEndsTheVideoWithBye() async throws {
        let janus = FakeJanus()
        try await janus.serve { api in
            try await withRoom(api) { device, _, _, _ in
                try await device.send(try signal("sfu", "offer", ["sdp": Self.offer]))
                #expect(try await device.next(ofType: "signal")["kind"] as? String == "answer")
                await janus.lose()
                let bye = try await device.next(ofType: "signal")
                #expect(bye["from"] as? String == "sfu" && bye["kind"] as? String == "bye", "the device sends again")
            }
        }
    }

    @Test func withoutAnSFUSignalsToItAreRefused() async throws {
        try await withServer(live: true) { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Garage", visibility: "public")
            let device = TestSocket(
                port: try #require(client.port), path: "/live/\(slug)/rooms/car?role=publisher", token: token(in: owner)
            )
            #expect(try await device.next(ofType: "welcome")["sfu"] == nil)
            try await device.send(try signal("sfu", "offer", ["sdp": Self.offer]))
            let refused = try await device.next(ofType: "refused")
            #expect(refused["code"] as? String == "unknownMember")
            #expect((refused["message"] as? String)?.contains("--sfu") == true)
        }
    }

    /// Polls `condition` for up to 5 s.
    private func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
        for _ in 0..<250 {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the condition did not hold within 5 s")
    }
}

/// Rooms across instances: what does not need PostgreSQL (`check_server.py live --database` runs
/// a room across two instances).
struct RoomExchangeTests {
    @Test func aLongMessageIsCutBetweenCharactersIntoPartsThatJoinAgain() {
        let text = String(repeating: "v=0 é 🌳 ", count: 3_000)
        let parts = RoomExchange.split(text, bytes: 6_000)
        #expect(
            parts.count == (text.utf8.count + 5_999) / 6_000 || parts.count == (text.utf8.count + 5_999) / 6_000 + 1)
        #expect(parts.allSatisfy { $0.utf8.count <= 6_000 && !$0.isEmpty })
        #expect(parts.joined() == text)
        #expect(RoomExchange.split("short", bytes: 6_000) == ["short"])
    }
}
