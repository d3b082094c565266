import ARVisGraphics

/// The pictures a drawing samples, decoded within a budget, so a small file cannot make the
/// renderer decode or keep gigabytes of pixels (a texture decompression bomb).
///
/// The textures' pixels are counted from their headers before any is decoded; each distinct file
/// is decoded once, one at a time, and kept reduced to a thumbnail's needs. Textures past the
/// budget are not decoded: their materials draw with their factors alone.
struct TexturePictures {
    /// The most pixels decoded for one drawing (four 4096² pictures).
    static let decodedPixels = 4 * 4_096 * 4_096
    /// The largest picture decoded (as before the budget: a 4096² texture).
    static let largestPicture = 4_096 * 4_096
    /// The most pixels one picture is kept at once decoded (a 2048² picture), as many as a
    /// 1024-pixel thumbnail's samples across.
    static let keptPixelsEach = 2_048 * 2_048
    /// The most pixels all pictures are kept at.
    static let keptPixels = 16 * 1_024 * 1_024

    /// The pictures by texture index.
    private(set) var pictures: [Int: RasterImage] = [:]

    /// Decodes `textures` of `model` (indices out of range are ignored), at most `decodedPixels`
    /// pixels in all, keeping at most `keptPixels` in all.
    init(
        _ textures: [Int], of model: Model, decodedPixels: Int = Self.decodedPixels, keptPixels: Int = Self.keptPixels
    ) {
        var groups: [ContentKey: [Int]] = [:]
        var order: [ContentKey] = []
        for index in Set(textures).sorted() where model.textures.indices.contains(index) {
            let data = ContentKey(bytes: model.textures[index].data)
            if groups[data] == nil { order.append(data) }
            groups[data, default: []].append(index)
        }
        var accepted: [ContentKey] = []
        var pixels = 0
        for data in order {
            guard let size = RasterImage.displaySize(of: data.bytes), size.width > 0, size.height > 0 else { continue }
            let (area, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            guard !overflow, pixels + area <= decodedPixels else { continue }
            pixels += area
            accepted.append(data)
        }
        let keptEach = max(1, min(Self.keptPixelsEach, keptPixels / max(1, accepted.count)))
        for data in accepted {
            guard let image = try? RasterImage(decoding: data.bytes, maximumPixels: Self.largestPicture) else {
                continue
            }
            let kept = image.reduced(toAtMost: keptEach)
            for index in groups[data, default: []] { pictures[index] = kept }
        }
    }
}
