import ARVisGraphics
import Foundation

extension USDStageReader {
    /// Where a shader input gets its value: a constant, or a texture channel.
    private enum Source {
        case value([Double])
        case texture(file: String, output: String, scale: [Double]?)
    }

    /// The `UsdPreviewSurface` shader a material's `outputs:surface` connects to.
    private func surfaceShader(_ material: String) -> String? {
        guard let target = field(material + ".outputs:surface", "connectionPaths")?.strings?.first else { return nil }
        return String(target.prefix { $0 != "." })
    }

    private func source(_ shader: String, _ input: String) -> Source? {
        let attribute = shader + ".inputs:" + input
        if let target = field(attribute, "connectionPaths")?.strings?.first, let dot = target.firstIndex(of: ".") {
            let texture = String(target[..<dot])
            let output = target[target.index(after: dot)...].replacingOccurrences(of: "outputs:", with: "")
            guard let file = field(texture + ".inputs:file", "default")?.text else { return nil }
            return .texture(file: file, output: output, scale: field(texture + ".inputs:scale", "default")?.components)
        }
        return field(attribute, "default")?.components.map { .value($0) }
    }

    /// The `varname` of the primvar reader feeding the material's textures.
    func texCoordReaderName(material: String) -> String? {
        guard let shader = surfaceShader(material),
            let file = field(shader + ".inputs:diffuseColor", "connectionPaths")?.strings?.first
        else { return nil }
        let texture = String(file.prefix { $0 != "." })
        guard let reader = field(texture + ".inputs:st", "connectionPaths")?.strings?.first else { return nil }
        return field(String(reader.prefix { $0 != "." }) + ".inputs:varname", "default")?.text
    }

    /// The model material for a USD material path, made once.
    mutating func material(at path: String) throws(ModelError) -> Int? {
        if let known = materialIndex[path] { return known }
        guard layer.specs[path] != nil, let shader = surfaceShader(path) else {
            materialIndex[path] = .some(nil)
            return nil
        }
        var material = Material(
            name: String(path[path.index(after: path.lastIndex(of: "/")!)...]), metallicFactor: 0, roughnessFactor: 0.5)
        switch source(shader, "diffuseColor") {
        case .value(let v) where v.count == 3:
            material.baseColorFactor = SIMD4(Float(v[0]), Float(v[1]), Float(v[2]), 1)
        case .texture(let file, _, let scale):
            material.baseColorTexture = texture(file)
            if let scale, scale.count == 4 { material.baseColorFactor = SIMD4(scale.map { Float($0) }) }
        default: material.baseColorFactor = SIMD4(0.18, 0.18, 0.18, 1)
        }
        switch source(shader, "opacity") {
        case .value(let v) where v.count == 1 && v[0] < 1:
            material.baseColorFactor.w = Float(v[0])
            material.alphaMode = .blend
        case .texture: material.alphaMode = .blend
        default: break
        }
        if let threshold = field(shader + ".inputs:opacityThreshold", "default")?.number, threshold > 0,
            material.alphaMode == .blend
        {
            material.alphaMode = .mask
            material.alphaCutoff = Float(threshold)
        }
        metallicRoughness(shader, into: &material)
        if case .texture(let file, _, _) = source(shader, "normal") { material.normalTexture = texture(file) }
        if case .texture(let file, _, _) = source(shader, "occlusion") { material.occlusionTexture = texture(file) }
        switch source(shader, "emissiveColor") {
        case .value(let v) where v.count == 3: material.emissiveFactor = SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
        case .texture(let file, _, let scale):
            material.emissiveTexture = texture(file)
            material.emissiveFactor =
                scale.map { $0.count >= 3 ? SIMD3(Float($0[0]), Float($0[1]), Float($0[2])) : SIMD3(1, 1, 1) }
                ?? SIMD3(1, 1, 1)
        default: break
        }
        material.doubleSided = false
        model.materials.append(material)
        materialIndex[path] = model.materials.count - 1
        return model.materials.count - 1
    }

    /// Metalness and roughness: factors, or one texture with roughness in G and metalness in B —
    /// taken as it is when the file already is laid out so, else composed from the two channels.
    private mutating func metallicRoughness(_ shader: String, into material: inout Material) {
        let metallic = source(shader, "metallic")
        let roughness = source(shader, "roughness")
        if case .value(let v) = metallic, let m = v.first { material.metallicFactor = Float(m) }
        if case .value(let v) = roughness, let r = v.first { material.roughnessFactor = Float(r) }
        var channels: (roughness: (file: String, output: String)?, metallic: (file: String, output: String)?) = (
            nil, nil
        )
        if case .texture(let file, let output, _) = roughness { channels.roughness = (file, output) }
        if case .texture(let file, let output, _) = metallic { channels.metallic = (file, output) }
        guard channels.roughness != nil || channels.metallic != nil else { return }
        if channels.roughness.map({ $0.output == "g" }) ?? true, channels.metallic.map({ $0.output == "b" }) ?? true,
            channels.roughness?.file == channels.metallic?.file || channels.roughness == nil || channels.metallic == nil
        {
            material.metallicRoughnessTexture = texture(channels.roughness?.file ?? channels.metallic!.file)
            if channels.roughness != nil { material.roughnessFactor = 1 }
            if channels.metallic != nil { material.metallicFactor = 1 }
            return
        }
        let key =
            "\(channels.roughness?.file ?? "")#\(channels.roughness?.output ?? "")|\(channels.metallic?.file ?? "")#\(channels.metallic?.output ?? "")"
        if let composed = composedTexture(key: key, roughness: channels.roughness, metallic: channels.metallic) {
            material.metallicRoughnessTexture = composed
            if channels.roughness != nil { material.roughnessFactor = 1 }
            if channels.metallic != nil { material.metallicFactor = 1 }
        }
    }

    /// A texture with roughness in G and metalness in B to be made from the named channels of the
    /// files when a writer needs it (``Model/composingTextures(warnings:)``): nothing is decoded here.
    private mutating func composedTexture(
        key: String, roughness: (file: String, output: String)?, metallic: (file: String, output: String)?
    ) -> Int? {
        if let known = textureIndex[key] { return known }
        let channel = { (output: String) -> Int in ["r": 0, "g": 1, "b": 2, "a": 3][output] ?? 0 }
        let sources = (
            roughness.map { ($0, texture($0.file)) }, metallic.map { ($0, texture($0.file)) }
        )
        guard sources.0.map({ $0.1 != nil }) ?? true, sources.1.map({ $0.1 != nil }) ?? true else { return nil }
        let composition = Texture.Composition(
            roughness: sources.0.map { Texture.Channel(texture: $0.1!, channel: channel($0.0.output)) },
            metallic: sources.1.map { Texture.Channel(texture: $0.1!, channel: channel($0.0.output)) })
        model.textures.append(Texture(name: "metallicRoughness", data: [], format: .png, composition: composition))
        textureIndex[key] = model.textures.count - 1
        return model.textures.count - 1
    }

    /// The model texture of an asset path inside the package, added once; `nil` (with a warning)
    /// when the file is absent or neither PNG nor JPEG.
    mutating func texture(_ asset: String) -> Int? {
        if let known = textureIndex[asset] { return known }
        var name = asset
        if let open = name.firstIndex(of: "["), name.hasSuffix("]") {
            name = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
        }
        while name.hasPrefix("./") { name.removeFirst(2) }
        // The same file spelt another way is the same texture: its bytes are copied and decoded once.
        if let known = textureIndex["file:" + name] {
            textureIndex[asset] = known
            return known
        }
        defer { textureIndex["file:" + name] = textureIndex[asset] }
        let candidates = [folder.isEmpty ? name : folder + "/" + name, name]
        var found = candidates.compactMap({ files[$0] }).first
        if found == nil, let external, !name.hasPrefix("/"), !name.contains("..") {
            found = (try? external(name))?[...]
        }
        guard let data = found else {
            warnings.append(
                "the texture \(asset) is not \(files.isEmpty ? "beside the file" : "in the package"); drawn without it")
            textureIndex[asset] = .some(nil)
            return nil
        }
        guard let format = Texture.format(of: Array(data.prefix(4))) else {
            warnings.append("the texture \(asset) is neither PNG nor JPEG; drawn without it")
            textureIndex[asset] = .some(nil)
            return nil
        }
        model.textures.append(Texture(name: name, data: Array(data), format: format))
        textureIndex[asset] = model.textures.count - 1
        return model.textures.count - 1
    }
}
