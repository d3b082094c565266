import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import ARVisServer

/// A live connection never writes a frame after its close frame, whoever writes it.
struct CloseFrameGuardTests {
    /// A channel with a frame encoder and the guard after it, as an upgraded connection has.
    private func guardedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try CloseFrameGuard.install(on: channel)
        return channel
    }

    private func frame(_ opcode: WebSocketOpcode, _ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, data: ByteBuffer(string: text))
    }

    /// A close frame with `code` and no reason.
    private func close(_ code: UInt16) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer(integer: code))
    }

    /// Every byte the channel put on the wire, in order.
    private func wire(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(buffer.readableBytesView) }
        return bytes
    }

    @Test func framesBeforeTheCloseGoOutAndNoneAfterIt() throws {
        let channel = try guardedChannel()
        try channel.writeAndFlush(frame(.text, "before")).wait()
        try channel.writeAndFlush(close(1000)).wait()
        let late = channel.writeAndFlush(frame(.text, "after"))
        let latePose = channel.writeAndFlush(frame(.binary, "pose"))
        #expect(throws: ChannelError.outputClosed) { try late.wait() }
        #expect(throws: ChannelError.outputClosed) { try latePose.wait() }
        let bytes = try wire(channel)
        // Two frames: "before" (2 + 6 bytes) and the close (2 + 2), nothing else.
        #expect(bytes.count == 12)
        #expect(bytes[0] == 0x81 && bytes[8] == 0x88)
        _ = try channel.finish()
    }

    @Test func aSecondCloseIsDroppedToo() throws {
        let channel = try guardedChannel()
        try channel.writeAndFlush(close(1000)).wait()
        #expect(throws: ChannelError.outputClosed) {
            try channel.writeAndFlush(close(1001)).wait()
        }
        #expect(try wire(channel).count == 4)
        _ = try channel.finish()
    }

    @Test func aChannelWithoutAnEncoderIsRefused() {
        let channel = EmbeddedChannel()
        #expect(throws: (any Error).self) { try CloseFrameGuard.install(on: channel) }
        _ = try? channel.finish()
    }
}
