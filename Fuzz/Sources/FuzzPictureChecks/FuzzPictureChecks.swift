public import ARVisGraphics
import FuzzDriver

/// The most pixels a fuzzed picture may have (1 MB of RGBA). Each path of the decoders is reached
/// with pictures this small; a larger cap let a 200-byte JPEG declare 2048 × 2048 and cost a whole
/// 4-Mpixel decode of padded data (the decoder reads a truncated scan as zeros), which held the
/// JPEG target near 400 executions a second. Sizes past the cap are still fed, and refused.
public let cap = 1 << 18

/// The picture `bytes` decode to under ``cap``, checked to hold the cap and its size, and to be the
/// size its header alone gives (`displaySize(of:)`, by which layouts place a picture before decoding
/// it); `nil` when they do not decode.
public func decodedPicture(_ bytes: [UInt8]) -> RasterImage? {
    guard let image = try? RasterImage(decoding: bytes, maximumPixels: cap) else { return nil }
    FuzzDriver.require(image.width * image.height <= cap, "\(image.width)×\(image.height) past the cap")
    FuzzDriver.require(image.pixels.count == image.width * image.height * 4, "pixels and size disagree")
    let shown = RasterImage.displaySize(of: bytes)
    FuzzDriver.require(
        shown?.width == image.width && shown?.height == image.height,
        "decoded \(image.width)×\(image.height), but the header reads \(String(describing: shown))")
    return image
}
