// The JPEG decoder: pixels within the cap or an error; the size its header tells (turned by its Exif
// orientation) is the decoded picture's, width and height.
import FuzzDriver
import FuzzPictureChecks

@_cdecl("FuzzJPEG_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    _ = decodedPicture(bytes)
}
