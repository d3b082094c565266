// Room text frames (the JSON messages and the OpenTok sample's legacy signal), read as the server
// reads them: a message or a located error. A message read writes back (`RoomMessage.text`) to text
// that reads to the same message, its values stay within their checks, and a signal's content is
// judged without a trap.

import ARVisSpatial
import FuzzDriver

@_cdecl("FuzzRoomMessage_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    // A WebSocket text frame is UTF-8 by the protocol: the server never sees other bytes as text.
    guard let text = String(validating: bytes, as: UTF8.self), let message = try? RoomMessage(text: text) else {
        return
    }
    let again = try? RoomMessage(text: message.text)
    FuzzDriver.require(
        again == message, "a room message read writes back to text that reads otherwise: \(message.text)")
    switch message {
    case .signal(let signal): _ = signal.contentProblem
    case .annotate(let annotate):
        FuzzDriver.require(annotate.problem == nil, "an annotate message read breaks its checks")
    case .planes(let planes):
        FuzzDriver.require(planes.planes.count <= PlanesMessage.maximumCount, "more planes than a room keeps were read")
    default: break
    }
}
