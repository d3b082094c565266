import NIOCore
import Testing

@testable import ARVisServer

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
        outbox.send(.ordered(stream: "spec", cursor: 3, text: ByteBuffer(string: "v3 live")))
        outbox.send(.ordered(stream: "spec", cursor: 4, text: ByteBuffer(string: "v4 live")))
        // A catch-up read after v3 was queued goes in front; the live v3 it covers is skipped.
        outbox.sendFirst([.ordered(stream: "spec", cursor: 3, text: ByteBuffer(string: "v3 caught up"))])
        outbox.send(.restart(stream: "spec", text: ByteBuffer(string: "deleted")))
        outbox.send(.ordered(stream: "spec", cursor: 1, text: ByteBuffer(string: "v1 again")))
        var frames: [Outbox.Frame] = []
        for _ in 0..<5 { if let frame = await outbox.next() { frames.append(frame) } }
        #expect(
            frames == [
                .text(ByteBuffer(string: "v3 caught up")), .text(ByteBuffer(string: "v4 live")),
                .text(ByteBuffer(string: "deleted")), .text(ByteBuffer(string: "v1 again")),
                .binary(ByteBuffer(bytes: [1])),
            ])
        #expect(outbox.cursors == ["spec": 1])
    }

    @Test func posesGoStraightToAMemberOnlyAfterItsWelcomeIsWritten() async {
        let outbox = Outbox()
        #expect(!outbox.takesPosesDirectly)  // joined: its catch-up is still being read
        outbox.sendFirst([.ordered(stream: "events", cursor: 1, text: ByteBuffer(string: "welcome"))])
        outbox.allowDirect()
        #expect(!outbox.takesPosesDirectly)  // queued, not written: a pose written now would pass it
        outbox.sendPose(ByteBuffer(bytes: [7]))
        #expect(await outbox.next() == .text(ByteBuffer(string: "welcome")))
        outbox.written()
        #expect(outbox.takesPosesDirectly)
        #expect(await outbox.next() == .binary(ByteBuffer(bytes: [7])))
        outbox.close(.reconnectElsewhere)
        #expect(!outbox.takesPosesDirectly)
    }

    @Test func aClientTooFarBehindIsClosedWithItsCursors() async {
        let outbox = Outbox(capacity: 3)
        outbox.send(.ordered(stream: "events", cursor: 1, text: ByteBuffer(string: "1")))
        #expect(await outbox.next() == .text(ByteBuffer(string: "1")))
        for cursor in 2...10 {
            outbox.send(.ordered(stream: "events", cursor: Int64(cursor), text: ByteBuffer(string: "\(cursor)")))
        }
        guard case .close(let reason) = await outbox.next() else {
            Issue.record("expected a close")
            return
        }
        #expect(reason.code == 4000 && reason.reason.contains("events=1"))
    }

    @Test func aClientHoldingTooManyBytesIsClosed() async {
        let outbox = Outbox(byteCapacity: 10_000)
        let version = ByteBuffer(repeating: UInt8(ascii: "x"), count: 4_000)
        outbox.send(.ordered(stream: "spec", cursor: 1, text: version))
        outbox.send(.ordered(stream: "spec", cursor: 2, text: version))
        outbox.send(.ordered(stream: "spec", cursor: 3, text: version))
        guard case .close(let reason) = await outbox.next() else {
            Issue.record("expected a close once 12 000 bytes would wait")
            return
        }
        #expect(reason.code == 4000)
    }

    @Test func bytesTakenFromTheQueueNoLongerCount() async {
        let outbox = Outbox(byteCapacity: 10_000)
        let version = ByteBuffer(repeating: UInt8(ascii: "x"), count: 4_000)
        for cursor in 1...10 {
            outbox.send(.ordered(stream: "spec", cursor: Int64(cursor), text: version))
            #expect(await outbox.next() == .text(version))
            outbox.written()
        }
    }

    @Test func aWaitingReaderIsWokenAndCancellationEndsIt() async {
        let outbox = Outbox()
        async let frame = outbox.next()
        try? await Task.sleep(for: .milliseconds(20))
        outbox.send(.text(ByteBuffer(string: "hello")))
        #expect(await frame == .text(ByteBuffer(string: "hello")))
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
