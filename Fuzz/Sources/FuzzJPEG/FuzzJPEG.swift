// The JPEG decoder: pixels within the cap or an error.
import ARVisGraphics
import FuzzDriver

@_cdecl("FuzzJPEG_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

/// The most pixels a fuzzed picture may have (16 MB of RGBA).
let cap = 1 << 22

func test(_ bytes: [UInt8]) {
    guard let image = try? RasterImage(decoding: bytes, maximumPixels: cap) else { return }
    FuzzDriver.require(image.width * image.height <= cap, "\(image.width)×\(image.height) past the cap")
    FuzzDriver.require(image.pixels.count == image.width * image.height * 4, "pixels and size disagree")
    if let size = RasterImage.displaySize(of: bytes) {
        FuzzDriver.require(size.width * size.height == image.width * image.height, "the display size disagrees")
    }
}
