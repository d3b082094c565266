// The JPEG decoder: pixels within the cap or an error; the size its header tells is the picture's.
import ARVisGraphics
import FuzzDriver
import FuzzPictureChecks

@_cdecl("FuzzJPEG_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    guard let image = decodedPicture(bytes), let size = RasterImage.displaySize(of: bytes) else { return }
    FuzzDriver.require(size.width * size.height == image.width * image.height, "the display size disagrees")
}
