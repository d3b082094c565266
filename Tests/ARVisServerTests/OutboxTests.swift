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

    /// Issue 51, item 2: signals, marks, presence and refusals are bounded as versions are.
    @Test(arguments: [(count: 5, size: 10), (count: 2, size: 6_000)])
    func everyKindOfMessageIsBounded(count: Int, size: Int) async {
        let outbox = Outbox(capacity: 4, byteCapacity: 10_000)
        let text = ByteBuffer(repeating: UInt8(ascii: "s"), count: size)
        for _ in 0..<count { outbox.send(.text(text)) }
        guard case .close(let reason) = await outbox.next() else {
            Issue.record("expected a close once \(count) messages of \(size) bytes wait")
            return
        }
        #expect(reason.code == 4000)
    }

    /// Issue 51, item 3: a catch-up is bounded too, but for one message alone (a spec's latest
    /// version must reach a client that holds nothing).
    @Test func aCatchUpPastTheBoundClosesButOneLargeMessagePasses() async {
        let large = ByteBuffer(repeating: UInt8(ascii: "v"), count: 20_000)
        let alone = Outbox(byteCapacity: 10_000)
        alone.sendFirst([.ordered(stream: "spec", cursor: 1, text: large)])
        #expect(await alone.next() == .text(large))
        let many = Outbox(byteCapacity: 10_000)
        many.sendFirst((1...3).map { .ordered(stream: "spec", cursor: Int64($0), text: large) })
        guard case .close(let reason) = await many.next() else {
            Issue.record("expected a close for 60 000 bytes of catch-up")
            return
        }
        #expect(reason.code == 4000)
        let counted = Outbox(capacity: 2)
        counted.sendFirst((1...3).map { .ordered(stream: "e", cursor: Int64($0), text: ByteBuffer(string: "e")) })
        guard case .close = await counted.next() else {
            Issue.record("expected a close for three messages past a capacity of two")
            return
        }
    }

    @Test func aMemberOverItsRateIsHeldBackUntilTheBucketFills() {
        let rate = MessageRate(rate: 10, burst: 3)
        let start = NIODeadline.now()
        #expect((0..<3).allSatisfy { _ in rate.take(now: start) })
        #expect(!rate.take(now: start))
        #expect(!rate.take(now: start + .milliseconds(50)))
        #expect(rate.take(now: start + .milliseconds(150)))
        #expect(!rate.take(now: start + .milliseconds(150)))
        #expect((0..<3).allSatisfy { _ in rate.take(now: start + .seconds(10)) })
    }

    @Test func theCacheDropsTheLeastRecentlyUsedFirst() {
        var cache = LRUCache<String, Int>(capacity: 3, weightCapacity: 100)
        cache.insert(1, weight: 40, for: "a")
        cache.insert(2, weight: 40, for: "b")
        #expect(cache.value(for: "a") == 1)
        cache.insert(3, weight: 40, for: "c")  // over 100: "b", used longest ago, goes
        #expect(cache.value(for: "b") == nil && cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        cache.insert(4, weight: 101, for: "d")  // heavier than the whole cache: not kept
        #expect(cache.value(for: "d") == nil && cache.weight == 80)
        cache.insert(5, weight: 1, for: "e")
        cache.insert(6, weight: 1, for: "f")  // a fourth entry: the oldest, "a", goes
        #expect(cache.count == 3 && cache.value(for: "a") == nil)
        cache.removeAll { $0 == "c" }
        #expect(cache.count == 2 && cache.weight == 2)
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
