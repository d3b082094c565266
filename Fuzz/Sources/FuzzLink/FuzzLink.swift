// iARVis link parsing: an action or a problem; the openVisConfig link made for an http(s) URL or for
// JSON reads back to it, and one made for any other URL is refused.
import ARVisSupport
import FuzzDriver

@testable import ARVisSpec

@_cdecl("FuzzLink_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? IARVisLink.parse(text)
    let byURL = try? IARVisLink.parse(IARVisLink.openVisConfig(text))
    let web = LinkPolicy.scheme(of: text).map { $0 == "http" || $0 == "https" } ?? false
    FuzzDriver.require(
        byURL == (web ? .openVisConfig(.url(text)) : nil),
        "the link made for the URL reads back as \(String(describing: byURL))")
    let byJSON = try? IARVisLink.parse(IARVisLink.openVisConfig(json: text))
    FuzzDriver.require(
        byJSON == (text.isEmpty ? nil : .openVisConfig(.json(text))),
        "the link made for the JSON reads back as \(String(describing: byJSON))")
}
