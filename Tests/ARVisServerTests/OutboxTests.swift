@testable import ARVisServer
import NIOCore
import Testing

/// The per-client queue: newest pose only, ordered messages never twice, a bound that closes a
/// client too far behind with where to resume.
struct OutboxTests {
    @Test func aSlowViewerGetsTheNewestPoseOnly() async {
        let outbox = Outbox()
        for frame in 1...5 { outbox.sendPose(ByteBuffer(bytes: [UInt8(frame)])) }
        #expect(await outbox.next() == .binary(ByteBuffer(bytes: [5])))
        outbox.finish()
        #expect(await outbox.next() == nil)
    }

    @Test func messagesGoFirstAndACursorNeverGoesBack() async {
        let outbox = Outbox()
        outbox.sendPose(ByteBuffer(bytes: [1]))
        outbox.send(.ordered(stream: "spec", cursor: 3, text: "v3 live"))
        outbox.send(.ordered(stream: "spec", cursor: 4, text: "v4 live"))
        // A catch-up read after v3 was queued goes in front; the live v3 it covers is skipped.
        outbox.sendFirst([.ordered(stream: "spec", cursor: 3, text: "v3 caught up")])
        outbox.send(.restart(stream: "spec", text: "deleted"))
        outbox.send(.ordered(stream: "spec", cursor: 1, text: "v1 again"))
        var frames: [Outbox.Frame] = []
        for _ in 0..<5 { if let frame = await outbox.next() { frames.append(frame) } }
        #expect(frames == [.text("v3 caught up"), .text("v4 live"), .text("deleted"), .text("v1 again"), .binary(ByteBuffer(bytes: [1]))])
        #expect(outbox.cursors == ["spec": 1])
    }

    @Test func aClientTooFarBehindIsClosedWithItsCursors() async {
        let outbox = Outbox(capacity: 3)
        outbox.send(.ordered(stream: "events", cursor: 1, text: "1"))
        #expect(await outbox.next() == .text("1"))
        for cursor in 2...10 { outbox.send(.ordered(stream: "events", cursor: Int64(cursor), text: "\(cursor)")) }
        guard case .close(let reason) = await outbox.next() else {
            Issue.record("expected a close")
            return
        }
        #expect(reason.code == 4000 && reason.reason.contains("events=1"))
    }

    @Test func aWaitingReaderIsWokenAndCancellationEndsIt() async {
        let outbox = Outbox()
        async let frame = outbox.next()
        try? await Task.sleep(for: .milliseconds(20))
        outbox.send(.text("hello"))
        #expect(await frame == .text("hello"))
        let waiting = Task { await outbox.next() }
        try? await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        #expect(await waiting.value == nil)
    }

    @Test func reasonsFitACloseFrame() {
        let reason = LiveClose.invalid(String(repeating: "é", count: 200))
        #expect(reason.reason.utf8.count <= 123 && reason.code == 1007)
    }
}
