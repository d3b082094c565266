import ARVisClient
import ARVisServer
import ARVisSpatial
import ARVisTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOWebSocket
import Testing
import WSCore

/// The live streams over real sockets: spec versions with exactly the widgets that changed, resume,
/// rooms with poses, annotations and shared planting, live dataset rows, and every protocol fault
/// closing with its code.
struct LiveTests: ServerTesting {
    let scratch = ScratchFolder("server-live")

    /// Signs `name` in, makes a public project with the example environment as spec `tour`.
    private func project(_ client: any TestClientProtocol, _ name: String = "ana") async throws -> (
        headers: HTTPFields, token: String, slug: String
    ) {
        let headers = try await signIn(client, name)
        let slug = try await createProject(client, headers, name: "Museum \(name)", visibility: "public")
        let put = try await client.execute(
            uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: headers,
            body: try example("two-targets-environment.json"))
        #expect(put.status == .created)
        return (headers, token(in: headers), slug)
    }

    private func environment() throws -> [String: Any] {
        let data = try Data(
            contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/two-targets-environment.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func put(
        _ client: any TestClientProtocol, _ headers: HTTPFields, _ slug: String, _ spec: [String: Any],
        status: HTTPResponse.Status = .ok
    ) async throws {
        let response = try await client.execute(
            uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: headers, body: try json(spec))
        #expect(response.status == status)
    }

    /// Edits widget `widget` of image target `target` of the example.
    private func editing(_ spec: [String: Any], target: Int, widget: Int, _ edit: (inout [String: Any]) -> Void)
        -> [String: Any]
    {
        var spec = spec
        var targets = spec["imageTrackingConfigurations"] as? [[String: Any]] ?? []
        var relationships = targets[target]["relationships"] as? [[String: Any]] ?? []
        var configuration = relationships[widget]["widgetConfiguration"] as? [String: Any] ?? [:]
        edit(&configuration)
        relationships[widget]["widgetConfiguration"] = configuration
        targets[target]["relationships"] = relationships
        spec["imageTrackingConfigurations"] = targets
        return spec
    }

    @Test func aSavedVersionReachesWatchersWithExactlyTheWidgetsThatChanged() async throws {
        try await withServer(live: true) { client in
            let (headers, _, slug) = try await project(client)
            let socket = TestSocket(port: try #require(client.port), path: "/live/\(slug)/tour")
            let first = try await socket.nextJSON()
            #expect(first["type"] as? String == "spec" && first["version"] as? Int == 1)
            #expect(
                first["changed"] as? [String] == [
                    "image1-widget1", "image1-widget2", "image1-widget3", "image2-widget1", "image2-widget2",
                ])
            #expect((first["spec"] as? [String: Any])?["imageTrackingConfigurations"] != nil)

            // One widget's component changes: only it.
            var spec = try environment()
            spec = editing(spec, target: 0, widget: 0) {
                $0["component"] = ["text": ["content": "# Poster A, revised"]]
            }
            try await put(client, headers, slug, spec)
            let second = try await socket.nextJSON()
            #expect(
                second["version"] as? Int == 2 && second["changed"] as? [String] == ["image1-widget1"]
                    && second["removed"] as? [String] == [])
            #expect((second["etag"] as? String)?.hasPrefix("\"2-") == true)

            // A placement changes (relative position of image2's first widget): only it.
            spec = editing(spec, target: 1, widget: 0) { $0["relativePosition"] = [0.1, 0, 0] }
            try await put(client, headers, slug, spec)
            #expect(try await socket.nextJSON()["changed"] as? [String] == ["image2-widget1"])

            // Image 1 grows: its widgets move with it; image 2's stay where they are relative to their poster.
            var targets = spec["imageTrackingConfigurations"] as? [[String: Any]] ?? []
            targets[0]["physicalWidth"] = 0.84
            spec["imageTrackingConfigurations"] = targets
            try await put(client, headers, slug, spec)
            let grown = try await socket.nextJSON()
            #expect(
                (grown["changed"] as? [String] ?? []).allSatisfy { $0.hasPrefix("image1-") }
                    && !(grown["changed"] as? [String] ?? []).isEmpty)

            // A widget removed.
            targets = spec["imageTrackingConfigurations"] as? [[String: Any]] ?? []
            targets[1]["relationships"] = Array((targets[1]["relationships"] as? [[String: Any]] ?? []).prefix(1))
            spec["imageTrackingConfigurations"] = targets
            try await put(client, headers, slug, spec)
            let removed = try await socket.nextJSON()
            #expect(removed["changed"] as? [String] == [] && removed["removed"] as? [String] == ["image2-widget2"])

            // Saving the same spec again changes nothing a device rebuilds.
            try await put(client, headers, slug, spec)
            #expect(try await socket.nextJSON()["changed"] as? [String] == [])
            try await socket.close()
        }
    }

    @Test func aClientResumingGetsEveryVersionItMissedInOrder() async throws {
        try await withServer(live: true) { client in
            let (headers, _, slug) = try await project(client)
            var spec = try environment()
            spec = editing(spec, target: 0, widget: 1) { $0["relativeAnchorPoint"] = "leading" }
            try await put(client, headers, slug, spec)
            spec = editing(spec, target: 1, widget: 1) { $0["size"] = [500, 100] }
            try await put(client, headers, slug, spec)

            let resumed = TestSocket(port: try #require(client.port), path: "/live/\(slug)/tour?version=1")
            let second = try await resumed.nextJSON()
            #expect(second["version"] as? Int == 2 && second["changed"] as? [String] == ["image1-widget2"])
            let third = try await resumed.nextJSON()
            #expect(third["version"] as? Int == 3 && third["changed"] as? [String] == ["image2-widget2"])

            // A client holding nothing gets the current version alone.
            let fresh = TestSocket(port: try #require(client.port), path: "/live/\(slug)/tour")
            let latest = try await fresh.nextJSON()
            #expect(latest["version"] as? Int == 3)
            try await fresh.close()

            // A client holding the current version is sent nothing until the next one.
            let current = TestSocket(port: try #require(client.port), path: "/live/\(slug)/tour?version=3")
            #expect(try await current.staysQuiet())
            try await put(client, headers, slug, try environment())
            let next = try await current.nextJSON()
            #expect(
                next["version"] as? Int == 4 && next["changed"] as? [String] == ["image1-widget2", "image2-widget2"])
            try await resumed.close()
            try await current.close()
        }
    }

    @Test func streamsAreRefusedWhereTheSpecIsNotReadable() async throws {
        try await withServer(live: true) { client in
            let owner = try await signIn(client, "owner")
            let slug = try await createProject(client, owner, name: "Secret", visibility: "private")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: owner,
                body: try example("two-targets-environment.json"))
            // Without the upgrade, the same URL answers as an event stream would: 404 for a private project.
            #expect(try await client.execute(uri: "/live/\(slug)/tour", method: .get).status == .notFound)
            #expect(
                try await client.execute(uri: "/live/\(slug)/nothing", method: .get, headers: owner).status == .notFound
            )
            let room = try await client.execute(uri: "/live/\(slug)/rooms/session1", method: .get, headers: owner)
            #expect(room.status.code == 426)
            // Rooms are for members: without a token, sign in first.
            #expect(try await client.execute(uri: "/live/\(slug)/rooms/session1", method: .get).status == .unauthorized)
        }
    }

    /// A camera at (1, 1.5, 0) looking down −z, 640 × 480 with a 500-pixel focal length.
    private func pose(frame: UInt32, x: Float = 1) -> PosePacket {
        PosePacket(
            frameID: frame, timestamp: Double(frame) / 60, position: SIMD3(x, 1.5, 0), orientation: .identity,
            intrinsics: SIMD4(500, 500, 320, 240), viewport: SIMD2(640, 480))
    }

    /// The pose a video frame carried: a camera at (0, 1.5, 0) looking 45° down, 640 × 480.
    private func downwardPose(frame: UInt32, focal: Float = 500, y: Float = 1.5) -> String {
        let half = Double.pi / 8
        let packet = PosePacket(
            frameID: frame, timestamp: 1, position: SIMD3(0, y, 0),
            orientation: Rotation(x: -sin(half), y: 0, z: 0, w: cos(half)), intrinsics: SIMD4(focal, focal, 320, 240),
            viewport: SIMD2(640, 480))
        return Data(packet.encoded()).base64EncodedString()
    }

    @Test func aTapOnAVideoFrameUsesThatFramesPoseOnTheFloorOrAtAPickedDepth() async throws {
        try await withServer(live: true) { client in
            let (_, token, slug) = try await project(client)
            let expert = TestSocket(port: try #require(client.port), path: "/live/\(slug)/rooms/video", token: token)
            _ = try await expert.nextJSON()
            // No device has sent a pose over the socket: the frame's own pose is enough.
            let pose = downwardPose(frame: 41)
            try await expert.send(
                #"{"type": "annotate", "tap": [0.5, 0.5], "pose": "\#(pose)", "onFloor": true, "clientId": "f"}"#)
            let onFloor = try #require(try await expert.nextJSON()["annotation"] as? [String: Any])
            let floor = try #require(onFloor["position"] as? [String: Double])
            #expect(abs(floor["x", default: .nan]) < 1e-4 && abs(floor["y", default: .nan]) < 1e-4)
            #expect(abs(floor["z", default: .nan] + 1.5) < 1e-4, "the centre ray meets the floor 1.5 m ahead")
            #expect(onFloor["frame"] as? Int == 41)

            try await expert.send(#"{"type": "annotate", "tap": [0.5, 0.5], "pose": "\#(pose)", "depth": 1}"#)
            let atDepth = try #require(try await expert.nextJSON()["annotation"] as? [String: Any])
            let point = try #require(atDepth["position"] as? [String: Double])
            #expect(abs(point["y", default: .nan] - (1.5 - 0.5.squareRoot())) < 1e-4)
            #expect(abs(point["z", default: .nan] + 0.5.squareRoot()) < 1e-4)

            let unfocused = downwardPose(frame: 1, focal: 0)
            let faraway = downwardPose(frame: 1, y: 1e6)
            let skyward = downwardPose(frame: 1, y: 9e4)
            for (message, code) in [
                (#"{"type": "annotate", "tap": [0.5, 0.5], "pose": "AAAA", "clientId": "bad"}"#, "invalidPose"),
                (#"{"type": "annotate", "tap": [0.5, 0.5], "pose": "\#(unfocused)", "clientId": "f0"}"#, "invalidPose"),
                (#"{"type": "annotate", "tap": [0.5, 0.5], "pose": "\#(faraway)", "clientId": "far"}"#, "invalidPose"),
                (#"{"type": "annotate", "tap": [0.5, 0.2], "pose": "\#(skyward)", "onFloor": true}"#, "outOfRange"),
                (#"{"type": "annotate", "tap": [0.5, 0.5], "clientId": "none"}"#, "unknownFrame"),
            ] {
                try await expert.send(message)
                #expect(try await expert.nextJSON()["code"] as? String == code)
            }
            try await expert.send(#"{"type": "annotate", "tap": [0.5, 0.5], "pose": "\#(pose)", "depth": -1}"#)
            #expect(
                try await expert.closeFrame(within: .seconds(10))?.closeCode == .dataInconsistentWithMessage,
                "a malformed message closes as others do")
        }
    }

    @Test func posesFanOutAndTapsBecomePersistedWorldAnnotations() async throws {
        try await withServer(live: true) { client in
            let (headers, token, slug) = try await project(client)
            let port = try #require(client.port)
            let device = TestSocket(port: port, path: "/live/\(slug)/rooms/visit1?role=publisher", token: token)
            let expert = TestSocket(port: port, path: "/live/\(slug)/rooms/visit1", token: token)
            #expect(try await device.nextJSON()["role"] as? String == "publisher")
            let welcome = try await expert.nextJSON()
            #expect(welcome["type"] as? String == "welcome" && (welcome["annotations"] as? [Any])?.isEmpty == true)

            let packet = pose(frame: 7).encoded()
            try await device.send(packet)
            guard case .binary(let received) = try await expert.next() else {
                Issue.record("expected a pose")
                return
            }
            #expect(Array(buffer: received) == packet)

            // The tap at the centre of frame 7 lies 2 m ahead of that camera (no planes known yet).
            try await expert.send(
                #"{"type": "annotate", "frame": 7, "tap": [0.5, 0.5], "text": "this valve", "clientId": "tap-1"}"#)
            for socket in [device, expert] {
                let message = try await socket.nextJSON()
                let annotation = try #require(message["annotation"] as? [String: Any])
                let position = try #require(annotation["position"] as? [String: Double])
                #expect(
                    abs(position["x", default: .nan] - 1) < 1e-6 && abs(position["y", default: .nan] - 1.5) < 1e-6
                        && abs(position["z", default: .nan] + 2) < 1e-6)
                #expect(
                    annotation["text"] as? String == "this valve" && annotation["frame"] as? Int == 7
                        && annotation["author"] as? String == "ana")
            }
            // A retry with the same clientId is applied once.
            try await expert.send(#"{"type": "annotate", "frame": 7, "tap": [0.5, 0.5], "clientId": "tap-1"}"#)
            #expect(try await expert.staysQuiet())

            // With a wall at z = −1, the same tap on the next frame lands on it (the device reports the
            // planes before that frame's pose, on the same connection, so they are known when it arrives).
            try await device.send(#"{"type": "planes", "planes": [{"point": [0, 0, -1], "normal": [0, 0, 1]}]}"#)
            try await device.send(pose(frame: 8, x: 5).encoded())
            _ = try await expert.next()
            try await expert.send(#"{"type": "annotate", "frame": 8, "tap": [0.5, 0.5]}"#)
            let onWall = try #require(try await expert.nextJSON()["annotation"] as? [String: Any])
            #expect((onWall["position"] as? [String: Double])?["z"].map { abs($0 + 1) < 1e-6 } == true)

            // The OpenTok form: x:y:z:tapX:tapY with the tap in points of the latest frame.
            try await expert.send("0:0:-2:320:240")
            let legacy = try #require(try await expert.nextJSON()["annotation"] as? [String: Any])
            #expect((legacy["position"] as? [String: Double])?["x"].map { abs($0 - 5) < 1e-6 } == true)

            // A frame the room no longer holds is refused to the sender only.
            try await expert.send(#"{"type": "annotate", "frame": 99999, "tap": [0.5, 0.5], "clientId": "late"}"#)
            let refused = try await expert.nextJSON()
            #expect(
                refused["type"] as? String == "refused" && refused["code"] as? String == "unknownFrame"
                    && refused["clientId"] as? String == "late")

            // Persisted: listed over HTTP, and deleting one reaches the room.
            let annotations = try await apiClient(client, token: self.token(in: headers)).listAnnotations(
                path: .init(project: slug), query: .init(room: "visit1")
            ).ok.body.json.annotations
            #expect(annotations.map(\.frame) == [7, 8, 8])
            let id = try #require(annotations.first?.id)
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/annotations/\(id)", method: .delete, headers: headers
                ).status == .noContent)
            for socket in [device, expert] {
                #expect(try await socket.next(ofType: "annotationDeleted")["id"] as? String == id)
            }
            // A member joining later gets the annotations in its welcome.
            let late = TestSocket(port: port, path: "/live/\(slug)/rooms/visit1", token: token)
            #expect((try await late.nextJSON()["annotations"] as? [Any])?.count == 2)
            for socket in [device, expert, late] { try await socket.close() }
        }
    }

    @Test func protocolFaultsCloseWithACodeAndAReason() async throws {
        try await withServer(live: true) { client in
            let (headers, token, slug) = try await project(client)
            let port = try #require(client.port)
            let viewer = try await signIn(client, "vera")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/vera", method: .put, headers: headers,
                body: try json(["role": "viewer"]))
            let viewerToken = self.token(in: viewer)
            func closing(_ path: String, token: String, send: (TestSocket) async throws -> Void) async throws
                -> WebSocketCloseFrame?
            {
                let socket = TestSocket(port: port, path: path, token: token)
                _ = try await socket.nextJSON()
                try await send(socket)
                return try await socket.closeFrame()
            }
            let room = "/live/\(slug)/rooms/faults"
            // The server closes as soon as it has read the frame's length, which can be before the
            // client has written the rest (under a sanitizer, or a loaded machine): the client's write
            // then fails on the closed channel, and the close frame is still what the server sent.
            let sendOversized: (TestSocket) async throws -> Void = { socket in
                do {
                    try await socket.send(String(repeating: "x", count: 70_000))
                } catch ChannelError.ioOnClosedChannel {}
            }
            var corrupt = pose(frame: 1).encoded()
            corrupt[20] ^= 0xFF
            let cases: [(String, String, (TestSocket) async throws -> Void, UInt16)] = [
                ("corrupt packet", room + "?role=publisher", { try await $0.send(corrupt) }, 1007),
                ("short packet", room + "?role=publisher", { try await $0.send([1, 2, 3]) }, 1007),
                ("pose from a member", room, { try await $0.send(pose(frame: 1).encoded()) }, 1008),
                ("not JSON", room, { try await $0.send("{nope") }, 1007),
                ("unknown type", room, { try await $0.send(#"{"type": "explode"}"#) }, 1003),
                ("tap out of range", room, { try await $0.send(#"{"type": "annotate", "tap": [2, 0.5]}"#) }, 1007),
                ("number too large", room, { try await $0.send(#"{"type": "annotate", "tap": [1e999, 0.5]}"#) }, 1007),
                ("bad legacy signal", room, { try await $0.send("1:2:nan:4:5") }, 1003),
                ("planes from a member", room, { try await $0.send(#"{"type": "planes", "planes": []}"#) }, 1008),
                ("message to a spec stream", "/live/\(slug)/tour", { try await $0.send("hello") }, 1003),
                ("oversized frame", room, sendOversized, 1009),
            ]
            for (name, path, send, code) in cases {
                let frame = try await closing(path, token: token, send: send)
                #expect(
                    frame?.closeCode == WebSocketErrorCode(codeNumber: Int(code)),
                    "\(name): closed with \(String(describing: frame?.closeCode))")
                if code != 1009 { #expect(frame?.reason?.isEmpty == false, "\(name) has a reason") }
            }
            let annotating = try await closing(room, token: viewerToken) {
                try await $0.send(#"{"type": "annotate", "tap": [0.5, 0.5]}"#)
            }
            #expect(annotating?.closeCode == .policyViolation)
            // The server is still there.
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    @Test func editorsPlantTogetherAndARefusedTreeComesBackToItsSender() async throws {
        try await withServer(live: true) { client in
            let (headers, token, slug) = try await project(client)
            let port = try #require(client.port)
            let other = try await signIn(client, "bruno")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/bruno", method: .put, headers: headers,
                body: try json(["role": "editor"]))
            let brunoToken = self.token(in: other)
            let ana = TestSocket(port: port, path: "/live/\(slug)/rooms/field", token: token)
            let bruno = TestSocket(port: port, path: "/live/\(slug)/rooms/field", token: brunoToken)
            _ = try await ana.nextJSON()
            let welcome = try await bruno.nextJSON()
            try await ana.send(
                #"{"type": "plant", "species": "Quercus suber", "position": {"x": 0, "z": 0}, "clientId": "a-1"}"#)
            let planted = try await bruno.nextJSON()
            #expect(
                planted["type"] as? String == "tree"
                    && (planted["tree"] as? [String: Any])?["plantedBy"] as? String == "ana")
            #expect((planted["seq"] as? Int ?? 0) > (welcome["seq"] as? Int ?? .max))
            _ = try await ana.nextJSON()
            try await bruno.send(
                #"{"type": "plant", "species": "Quercus suber", "position": {"x": 1, "z": 0}, "clientId": "b-1"}"#)
            let refused = try await bruno.nextJSON()
            #expect(
                refused["type"] as? String == "refused" && refused["code"] as? String == "conflict"
                    && refused["clientId"] as? String == "b-1")
            #expect((refused["message"] as? String)?.contains("by ana") == true)
            #expect(try await ana.staysQuiet())
            // A retried message is applied once.
            try await ana.send(
                #"{"type": "plant", "species": "Quercus suber", "position": {"x": 0, "z": 0}, "clientId": "a-1"}"#)
            #expect(try await bruno.staysQuiet())
            let listed = try await apiClient(client, token: self.token(in: headers)).listTrees(
                path: .init(project: slug)
            ).ok
                .body.json.trees
            #expect(listed.map(\.plantedBy) == ["ana"])
            // Removing it over HTTP reaches both; a member resuming after the plant sees the removal.
            let since = planted["seq"] as? Int ?? 0
            let id = try #require(listed.first?.id)
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/trees/\(id)", method: .delete, headers: headers)
                    .status == .noContent)
            #expect(try await bruno.nextJSON()["type"] as? String == "treeRemoved")
            let resumed = TestSocket(port: port, path: "/live/\(slug)/rooms/field?since=\(since)", token: token)
            let resumedWelcome = try await resumed.nextJSON()
            #expect(resumedWelcome["annotations"] is NSNull)
            let missed = try await resumed.nextJSON()
            #expect(missed["type"] as? String == "treeRemoved" && missed["id"] as? String == id)
            for socket in [ana, bruno, resumed] { try await socket.close() }
        }
    }

    @Test func rowsAppendedToADatasetReachTheWidgetsThatFollowIt() async throws {
        try await withServer(live: true) { client in
            let headers = try await signIn(client, "ana")
            let slug = try await createProject(client, headers, name: "Hall", visibility: "public")
            let chart: [String: Any] = [
                "dataSources": [
                    [
                        "label": "default", "data": ["time": [String](), "celsius": [Double]()],
                        "dataset": ["name": "hall-sensor", "rows": 3],
                    ]
                ],
                "components": [["type": "LineMark", "config": ["x": ["field": "time"], "y": ["field": "celsius"]]]],
            ]
            let spec: [String: Any] = [
                "imageTrackingConfigurations": [
                    [
                        "imageURL": "https://example.org/hall.jpg",
                        "relationships": [
                            [
                                "widgetConfiguration": [
                                    "component": ["text": ["content": "Hall"]], "relativeAnchorPoint": "top",
                                    "relativePosition": [0, 0, 0],
                                ]
                            ],
                            [
                                "widgetConfiguration": [
                                    "component": ["chart": chart], "relativeAnchorPoint": "bottom",
                                    "relativePosition": [0, 0, 0],
                                ]
                            ],
                        ],
                    ]
                ]
            ]
            let put = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/hall", method: .put, headers: headers, body: try json(spec))
            #expect(put.status == .created, "\(String(buffer: put.body))")
            var csv = headers
            csv[.contentType] = "text/csv"
            let first = try await client.execute(
                uri: "/api/v1/projects/\(slug)/datasets/hall-sensor/rows", method: .post, headers: csv,
                body: ByteBuffer(string: "time,celsius\n10:00,20.5\n10:01,20.75\n10:02,\"21\"\n10:03,21.25\n"))
            #expect(first.status == .created)
            #expect(try decode(ClientOperations.AppendRows.Output.Created.Body.JsonPayload.self, first).appended == 4)

            let socket = TestSocket(port: try #require(client.port), path: "/live/\(slug)/hall")
            #expect(try await socket.nextJSON()["type"] as? String == "spec")
            let window = try await socket.nextJSON()
            #expect(
                window["type"] as? String == "rows" && window["reset"] as? Bool == true
                    && window["widgets"] as? [String] == ["image1-widget2"])
            let rows = try #require(window["rows"] as? [[String: Any]])
            #expect(rows.compactMap { ($0["values"] as? [String: Any])?["celsius"] as? Double } == [20.75, 21, 21.25])

            var lines = headers
            lines[.contentType] = "application/x-ndjson"
            let next = try await client.execute(
                uri: "/api/v1/projects/\(slug)/datasets/hall-sensor/rows", method: .post, headers: lines,
                body: ByteBuffer(string: "{\"time\": \"10:04\", \"celsius\": 21.5}\n"))
            #expect(next.status == .created)
            let pushed = try await socket.nextJSON()
            #expect(pushed["reset"] as? Bool == false && (pushed["rows"] as? [[String: Any]])?.count == 1)
            let lastSeq = try #require((pushed["rows"] as? [[String: Any]])?.last?["seq"] as? Int)

            // Bad rows are refused with where they are wrong.
            let bad = try await client.execute(
                uri: "/api/v1/projects/\(slug)/datasets/hall-sensor/rows", method: .post, headers: lines,
                body: ByteBuffer(string: "{\"time\": \"10:05\"}\n[1, 2]\n"))
            #expect(bad.status == .unprocessableContent)
            #expect(try errorMessage(bad).contains("line 2"))
            var text = headers
            text[.contentType] = "text/plain"
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/datasets/hall-sensor/rows", method: .post, headers: text,
                    body: ByteBuffer(string: "x")
                ).status == .unsupportedMediaType)
            // Resuming after the last row held gets nothing old.
            let resumed = TestSocket(
                port: try #require(client.port), path: "/live/\(slug)/hall?version=1&rows=hall-sensor:\(lastSeq)")
            let none = try await resumed.nextJSON()
            #expect(none["reset"] as? Bool == false && (none["rows"] as? [Any])?.isEmpty == true)
            let listed = try await apiClient(client).listRows(
                path: .init(project: slug, dataset: "hall-sensor"), query: .init(last: 2)
            ).ok.body.json.rows
            #expect(listed.map(\.seq) == [lastSeq - 1, lastSeq])
            for socket in [socket, resumed] { try await socket.close() }
        }
    }
}
