public import ARVisGraphics
import FuzzDriver

/// The most pixels a fuzzed picture may have (16 MB of RGBA).
public let cap = 1 << 22

/// The picture `bytes` decode to under ``cap``, checked to hold the cap and its size; `nil` when they
/// do not decode.
public func decodedPicture(_ bytes: [UInt8]) -> RasterImage? {
    guard let image = try? RasterImage(decoding: bytes, maximumPixels: cap) else { return nil }
    FuzzDriver.require(image.width * image.height <= cap, "\(image.width)×\(image.height) past the cap")
    FuzzDriver.require(image.pixels.count == image.width * image.height * 4, "pixels and size disagree")
    return image
}
