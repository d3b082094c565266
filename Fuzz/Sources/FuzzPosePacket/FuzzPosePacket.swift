// Room pose packets (ARVis and OpenTok): a pose or an error; a pose read writes back to bytes that
// read to the same pose (the flags byte is reserved: read, not kept). Each 62-byte input is also read
// with its checksum mended, so the fields behind it are reached.
import FuzzDriver

@testable import ARVisSpatial

@_cdecl("FuzzPosePacket_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    check(bytes)
    if bytes.count == PosePacket.byteCount {
        var mended = bytes
        let checksum = mended.withUnsafeBytes {
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<(PosePacket.byteCount - 4)]))
        }
        withUnsafeBytes(of: checksum.littleEndian) { mended.replaceSubrange((PosePacket.byteCount - 4)..., with: $0) }
        check(mended)
    }
    if let packet = try? OpenTokPosePacket(decoding: bytes) {
        let again = try? OpenTokPosePacket(decoding: packet.encoded())
        FuzzDriver.require(again == packet, "an OpenTok packet read writes back to another")
    }
}

func check(_ bytes: [UInt8]) {
    guard let packet = try? PosePacket(decoding: bytes) else { return }
    let again = try? PosePacket(decoding: packet.encoded())
    FuzzDriver.require(again == packet, "a pose packet read writes back to another")
}
