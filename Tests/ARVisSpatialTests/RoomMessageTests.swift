import ARVisSpatial
import ARVisSpec
import ARVisSupport
import Testing

struct RoomMessageTests {
    /// One message of every kind, as a device would write it.
    static let messages: [RoomMessage] = [
        .annotate(
            AnnotateMessage(
                tap: [0.5, 0.25], frame: 42, pose: "AAAA", onFloor: true, depth: 1.5, text: "valve / 3", clientId: "c1")
        ),
        .annotate(AnnotateMessage(tap: [0, 1])),
        .deleteAnnotation(IdentifierMessage(id: "a1", clientId: "c2")),
        .removeTree(IdentifierMessage(id: "t1")),
        .plant(PlantMessage(species: "Quercus robur", position: .init(x: 1, z: -2.5), clientId: "c3")),
        .plant(PlantMessage(species: "Fagus", position: .init(x: 1, y: 0.25, z: 2))),
        .plantGroup(
            PlantGroupMessage(
                species: "Pinus pinea", position: .init(x: 1, y: 0, z: 2), count: 5, scale: 1.5, session: "phone-1",
                clientId: "c4")),
        .plantGroup(PlantGroupMessage(species: "Pinus pinea", position: .init(x: 0, z: 0), session: "s")),
        .removeTreeGroup(IdentifierMessage(id: "g1", clientId: "c5")),
        .planes(PlanesMessage(planes: [.init(point: [0, 0, 0], normal: [0, 1, 0])])),
        .mark(MarkMessage(tap: [0.1, 0.9], text: "here")),
        .projectFrame(ProjectFrameMessage(position: [1, 0, -2.5], orientation: [0, 0.7071, 0, 0.7071])),
        .projectFrame(ProjectFrameMessage()),
        .signal(SignalMessage(to: "m1", kind: "offer", sdp: "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n")),
        .signal(SignalMessage(to: "m1", kind: "candidate", candidate: .null)),
        .signal(
            SignalMessage(
                to: "m1", kind: "candidate", candidate: ["candidate": "candidate:1 1 udp 1 10.0.0.1 9 typ host"])),
        .signal(SignalMessage(to: "m1", kind: "bye", sdp: "dropped")),
        .legacy(legacy),
    ]

    /// The OpenTok sample's signal: a point and a tap in view points.
    static var legacy: AnnotationSignal {
        var signal = AnnotationSignal(tap: SIMD2(120, 340.5), frame: nil)
        signal.legacyPoint = Vec3(0.1, -0.2, 1e-05)
        return signal
    }

    @Test(arguments: messages)
    func aMessageWrittenReadsBackToItself(_ message: RoomMessage) throws {
        #expect(try RoomMessage(text: message.text) == message)
    }

    @Test func theEndOfCandidatesIsNotNoCandidate() throws {
        let end = try RoomMessage(text: #"{"type": "signal", "to": "m1", "kind": "candidate", "candidate": null}"#)
        let none = try RoomMessage(text: #"{"type": "signal", "to": "m1", "kind": "candidate"}"#)
        guard case .signal(let ended) = end, case .signal(let missing) = none else {
            Issue.record("both are signals")
            return
        }
        #expect(ended.candidate == .null && ended.contentProblem == nil)
        #expect(missing.candidate == nil && missing.contentProblem != nil)
        #expect(end.text.contains(#""candidate":null"#))
    }

    @Test(arguments: [
        (#"{"tap": [0.5, 0.5]}"#, "a message is a JSON object with a \"type\""),
        (#"{"type": "annotate", "tap": [0.5]}"#, "tap is [x, y], each a number from 0 to 1"),
        (#"{"type": "annotate", "tap": "middle"}"#, "a annotate message is {\"type\": \"annotate\""),
        (#"{"type": "annotate", "tap": [0.5, 0.5], "depth": 0}"#, "depth is a number of metres above 0"),
        (#"{"type": "plant", "species": "", "position": {"x": 0, "z": 0}}"#, "a species is 1 to 200 characters"),
        (#"{"type": "planes", "planes": [{"point": [0, 0, 0], "normal": [0, 0, 0]}]}"#, "must not be zero"),
        (#"{"type": "removeTree", "id": "t1", "clientId": ""}"#, "a clientId is 1 to 100 characters"),
        (#"{"type": "signal", "to": "", "kind": "bye"}"#, "to is a member id"),
        (#"{"type": "projectFrame", "position": [0, 0, 0]}"#, "both a position and an orientation, or neither"),
        (#"{"type": "projectFrame", "position": [0, 0, 0], "orientation": [0, 0, 0, 0]}"#, "not all 0"),
    ])
    func aBrokenMessageIsInvalidAndSaysWhy(text: String, reason: String) {
        #expect {
            try RoomMessage(text: text)
        } throws: { error in
            let error = error as? SpatialError
            return error?.code == .invalidMessage && error?.message.contains(reason) == true
        }
    }

    @Test(arguments: [
        (#"{"type": "teleport"}"#, "unknown message type \"teleport\": a room takes annotate,"),
        ("1:2:3", "a legacy x:y:z:tapX:tapY signal: an annotation signal is x:y:z:tapX:tapY, five numbers; got 3"),
        ("", "got 1 field"),
    ])
    func aTextNoRoomTakesIsUnsupported(text: String, reason: String) {
        #expect {
            try RoomMessage(text: text)
        } throws: { error in
            let error = error as? SpatialError
            return error?.code == .unsupportedMessage && error?.message.contains(reason) == true
        }
    }

    @Test func aTooLongTextIsRefused() {
        let text = String(repeating: "é", count: RoomMessage.maximumTextLength + 1)
        #expect(AnnotateMessage(tap: [0, 0], text: text).problem != nil)
        #expect(MarkMessage(tap: [0, 0], text: String(text.dropLast())).problem == nil)
    }

    /// Issue 51, item 2: 2 000 characters of combining marks were 59 KB; the bytes are bounded too.
    @Test func aTextOfFewCharactersButManyBytesIsRefused() {
        let stacked = "a" + String(repeating: "\u{301}", count: 20)
        let text = String(repeating: stacked, count: 400)
        #expect(text.count == 400 && text.utf8.count > RoomMessage.maximumTextBytes)
        #expect(MarkMessage(tap: [0, 0], text: text).problem?.contains("bytes") == true)
        #expect(AnnotateMessage(tap: [0, 0], text: text).problem != nil)
        let cjk = String(repeating: "木", count: RoomMessage.maximumTextLength)
        #expect(MarkMessage(tap: [0, 0], text: cjk).problem == nil)
    }
}
