// EXT_meshopt_compression's decoders: the first four bytes pick the mode and filter, the stride and
// the element count (at most 65 535); the rest is the stream. A stream decodes to exactly
// count × stride bytes or is refused; an attribute stream decoded with a filter has the same length.
import FuzzDriver

@testable import ARVisModel

@_cdecl("FuzzMeshopt_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

let modes: [MeshoptDecoder.Mode] = [.attributes, .triangles, .indices]
let filters: [MeshoptDecoder.Filter] = [.none, .octahedral, .quaternion, .exponential]

func test(_ bytes: [UInt8]) {
    guard bytes.count >= 4 else { return }
    let mode = modes[Int(bytes[0] & 3) % 3]
    let filter = mode == .attributes ? filters[Int(bytes[0] >> 2) & 3] : .none
    let stride = mode == .attributes ? (Int(bytes[1] & 63) + 1) * 4 : (bytes[1] & 1 == 0 ? 2 : 4)
    let count = Int(bytes[2]) | Int(bytes[3]) << 8
    let stream = Array(bytes[4...])
    guard let decoded = try? MeshoptDecoder.decode(stream, count: count, stride: stride, mode: mode, filter: filter)
    else { return }
    FuzzDriver.require(decoded.count == count * stride, "a stream decoded to other than count × stride bytes")
    FuzzDriver.require(
        stream.count >= MeshoptDecoder.minimumSize(count: count, stride: stride, mode: mode),
        "a stream shorter than its least size decoded")
}
