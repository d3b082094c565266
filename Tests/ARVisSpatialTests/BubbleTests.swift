import ARVisSpatial
import ARVisSupport
import Foundation
import Testing

/// Bubbles as anchors carry them: a pane's size and colour, a trail's slices, each rule refused at
/// its field, and payloads that are not bubbles left alone.
struct BubbleTests {
    static func payload(_ json: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    @Test func aPaneReadsWithTheSeedsDefaults() throws {
        let bubble = try Bubble(payload: Self.payload(#"{"kind":"pane","width":0.6,"phase":3.2}"#))
        guard case .pane(let pane) = bubble else {
            Issue.record("not a pane: \(String(describing: bubble))")
            return
        }
        #expect(pane.width == 0.6)
        #expect(abs(pane.height - 0.4) < 1e-12)
        #expect(pane.thicknessOffset == 0)
        #expect(pane.phase == 3.2)
    }

    @Test func aTrailReadsItsSlices() throws {
        let bubble = try Bubble(
            payload: Self.payload(
                #"{"kind":"trail","up":[0,1,0],"points":[0,0,0,10,0,0,10,-2,1],"thicknessOffset":-40}"#))
        guard case .trail(let trail) = bubble else {
            Issue.record("not a trail: \(String(describing: bubble))")
            return
        }
        #expect(trail.sliceCount == 3)
        #expect(trail.points == [0, 0, 0, 10, 0, 0, 10, -2, 1])
        #expect(trail.thicknessOffset == -40)
    }

    @Test func otherAppsPayloadsAreNotBubbles() throws {
        for json in [#"{}"#, #"{"kind":"note","width":99}"#, #""pane""#, #"[1,2]"#, #"{"kind":7}"#] {
            #expect(try Bubble(payload: Self.payload(json)) == nil, "\(json)")
        }
    }

    @Test(arguments: [
        (#"{"kind":"pane","width":0.05}"#, "payload.width"),
        (#"{"kind":"pane","width":2.5}"#, "payload.width"),
        (#"{"kind":"pane"}"#, "payload.width"),
        (#"{"kind":"pane","width":"wide"}"#, "payload.width"),
        (#"{"kind":"pane","width":0.6,"height":0.01}"#, "payload.height"),
        (#"{"kind":"pane","width":0.6,"thicknessOffset":900}"#, "payload.thicknessOffset"),
        (#"{"kind":"pane","width":0.6,"phase":1e300}"#, "payload.phase"),
        (#"{"kind":"trail","up":[0,0,0],"points":[0,0,0,10,0,0]}"#, "payload.up"),
        (#"{"kind":"trail","up":[0,1],"points":[0,0,0,10,0,0]}"#, "payload.up"),
        (#"{"kind":"trail","up":[0,1,0]}"#, "payload.points"),
        (#"{"kind":"trail","up":[0,1,0],"points":[0,0,0,10,0]}"#, "payload.points"),
        (#"{"kind":"trail","up":[0,1,0],"points":[0,0,0]}"#, "payload.points"),
        (#"{"kind":"trail","up":[0,1,0],"points":[0,0,0,10.5,0,0]}"#, "payload.points[3]"),
        (#"{"kind":"trail","up":[0,1,0],"points":[0,0,0,0,0,100001]}"#, "payload.points[5]"),
        (#"{"kind":"trail","up":[0,1,0],"points":[0,0,0,1,0,null]}"#, "payload.points[5]"),
    ])
    func brokenBubblesAreRefusedAtTheirField(json: String, location: String) throws {
        let value = try Self.payload(json)
        #expect {
            try Bubble(payload: value)
        } throws: { error in
            (error as? SpatialError)?.code == .invalidMessage && (error as? SpatialError)?.location == location
        }
    }

    @Test func aTrailHoldsAtMostTheSeedsSlices() throws {
        func trail(_ slices: Int) throws -> JSONValue {
            try Self.payload(
                #"{"kind":"trail","up":[0,1,0],"points":["#
                    + Array(repeating: "10,0,0", count: slices).joined(separator: ",") + "]}")
        }
        #expect(try Bubble(payload: trail(Bubble.maxSlices)) != nil)
        #expect(throws: SpatialError.self) { try Bubble(payload: trail(Bubble.maxSlices + 1)) }
    }
}
