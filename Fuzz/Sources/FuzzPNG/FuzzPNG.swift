// The PNG decoder: pixels within the cap or an error; an opaque picture written as PNG decodes to the same pixels.
import FuzzDriver
import FuzzPictureChecks

@testable import ARVisGraphics

@_cdecl("FuzzPNG_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    guard let image = decodedPicture(bytes) else { return }
    guard image.width * image.height <= 1 << 16 else { return }
    var rgb: [UInt8] = []
    rgb.reserveCapacity(image.width * image.height * 3)
    for index in stride(from: 0, to: image.pixels.count, by: 4) {
        guard image.pixels[index + 3] == 255 else { return }
        rgb += image.pixels[index..<(index + 3)]
    }
    let png = PNGEncoder.encode(width: image.width, height: image.height, rgb: rgb)
    let again = try? RasterImage(decoding: png, maximumPixels: cap)
    FuzzDriver.require(again == image, "the picture written as PNG decodes differently")
}
