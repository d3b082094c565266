import ARVisGraphics

extension Model {
    /// The pixel size of texture `index`, from its file's header (for a composition, the larger of
    /// its sources'), without decoding a picture.
    public func textureSize(_ index: Int) -> (width: Int, height: Int)? {
        guard textures.indices.contains(index) else { return nil }
        let texture = textures[index]
        guard let composition = texture.composition else { return RasterImage.displaySize(of: texture.data) }
        let sizes = [composition.roughness, composition.metallic].compactMap { channel in
            channel.flatMap {
                textures.indices.contains($0.texture) ? RasterImage.displaySize(of: textures[$0.texture].data) : nil
            }
        }
        guard !sizes.isEmpty else { return nil }
        return (sizes.map(\.width).max()!, sizes.map(\.height).max()!)
    }

    /// The model with every composed texture made: its sources decoded once each, the channels
    /// copied byte for byte (the smaller source sampled up to the larger's size) and written as an
    /// 8-bit RGB PNG. A composition whose source cannot be decoded, or whose sources would take the
    /// pixels decoded past `pixelBudget` (counted from their headers first), is dropped, with a
    /// warning, and its materials keep their constant metalness and roughness. A source is kept
    /// decoded only until the last composition that uses it is made.
    public func composingTextures(warnings: inout [String], pixelBudget: Int = 4 * 4_096 * 4_096) -> Model {
        guard textures.contains(where: { $0.composition != nil }) else { return self }
        var model = self
        var uses: [Int: Int] = [:]
        for texture in textures {
            for source in [texture.composition?.roughness, texture.composition?.metallic].compactMap({ $0 }) {
                uses[source.texture, default: 0] += 1
            }
        }
        var budget = pixelBudget
        var decoded: [Int: RasterImage?] = [:]
        func picture(_ index: Int) -> RasterImage? {
            if let known = decoded[index] { return known }
            let area = textureSize(index).map { $0.width.multipliedReportingOverflow(by: $0.height) }
            guard let area, !area.overflow, area.partialValue <= budget else {
                decoded[index] = .some(nil)
                return nil
            }
            budget -= area.partialValue
            let image = try? RasterImage(decoding: textures[index].data, maximumPixels: 16_777_216)
            decoded[index] = image
            return image
        }
        func release(_ index: Int) {
            uses[index, default: 1] -= 1
            if uses[index] == 0, decoded[index] != nil { decoded[index] = .some(nil) }
        }
        for index in model.textures.indices {
            guard let composition = model.textures[index].composition else { continue }
            defer { [composition.roughness, composition.metallic].compactMap { $0?.texture }.forEach(release) }
            var channels: [(image: RasterImage, channel: Int, target: Int)] = []
            var failed: String?
            for (source, target) in [(composition.roughness, 1), (composition.metallic, 2)] {
                guard let source else { continue }
                guard let image = picture(source.texture) else {
                    failed =
                        textures.indices.contains(source.texture) ? textures[source.texture].name : "\(source.texture)"
                    break
                }
                channels.append((image, source.channel, target))
            }
            if let failed {
                warnings.append(
                    "the texture \(failed) could not be decoded; its material uses constant metalness and roughness")
                model.dropTexture(index)
                continue
            }
            model.textures[index].data = Self.compose(channels)
            model.textures[index].format = .png
            model.textures[index].composition = nil
        }
        return model
    }

    /// Materials stop using texture `index` for metalness and roughness, which fall back to their factors.
    private mutating func dropTexture(_ index: Int) {
        for material in materials.indices where materials[material].metallicRoughnessTexture == index {
            materials[material].metallicRoughnessTexture = nil
        }
    }

    /// An RGB PNG, red 255 and each source's channel copied into its target channel.
    private static func compose(_ channels: [(image: RasterImage, channel: Int, target: Int)]) -> [UInt8] {
        let width = channels.map(\.image.width).max() ?? 1
        let height = channels.map(\.image.height).max() ?? 1
        var rgb = [UInt8](repeating: 255, count: width * height * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            for (image, channel, target) in channels {
                image.pixels.withUnsafeBufferPointer { pixels in
                    for y in 0..<height {
                        let row = (y * image.height / height) * image.width
                        var at = y * width * 3 + target
                        for x in 0..<width {
                            out[at] = pixels[(row + x * image.width / width) * 4 + channel]
                            at += 3
                        }
                    }
                }
            }
        }
        // Texture maps are noisy: a short match search keeps the encoding at memory speed.
        return PNGEncoder.encode(width: width, height: height, rgb: rgb, chainLimit: 2)
    }
}
