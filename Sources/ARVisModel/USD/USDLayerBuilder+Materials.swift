extension USDLayerBuilder {
    /// One `Material` per model material under `/Root/Materials`, each a `UsdPreviewSurface` fed by
    /// `UsdUVTexture` shaders reading `primvars:st`.
    mutating func materials() {
        let names = model.materials.indices.map { "Material_\($0)" }
        crate.add(
            "/Root/Materials", .prim,
            [("specifier", .specifier(0)), ("typeName", .token("Scope"))]
                + (names.isEmpty ? [] : [("primChildren", .tokenVector(names))]))
        for index in model.materials.indices { material(index) }
    }

    /// A texture shader to write: its name, the model texture, its colour space, scale and bias,
    /// and the outputs the surface reads.
    private struct TextureShader {
        var name: String
        var texture: Int
        var colorSpace: String
        var scale: SIMD4<Float>?
        var bias: SIMD4<Float>?
        var outputs: [(name: String, type: String)]
    }

    private mutating func material(_ index: Int) {
        let material = model.materials[index]
        let path = Self.materialPath(index)
        let surface = path + "/Surface"
        var inputs: [(name: String, type: String, value: CrateWriter.Value?, connection: String?)] = []
        var shaders: [TextureShader] = []
        let base = material.baseColorFactor
        let usesAlpha = material.alphaMode != .opaque
        if let texture = material.baseColorTexture {
            shaders.append(
                TextureShader(
                    name: "BaseColor", texture: texture, colorSpace: "sRGB",
                    scale: base == SIMD4(1, 1, 1, 1) ? nil : base,
                    outputs: [("rgb", "float3")] + (usesAlpha ? [("a", "float")] : [])))
            inputs.append(("diffuseColor", "color3f", nil, path + "/BaseColor.outputs:rgb"))
            if usesAlpha { inputs.append(("opacity", "float", nil, path + "/BaseColor.outputs:a")) }
        } else {
            inputs.append(("diffuseColor", "color3f", .vec3f(SIMD3(base.x, base.y, base.z)), nil))
            if usesAlpha { inputs.append(("opacity", "float", .float(base.w), nil)) }
        }
        if material.alphaMode == .mask {
            inputs.append(("opacityThreshold", "float", .float(material.alphaCutoff), nil))
        }
        if let texture = material.metallicRoughnessTexture {
            shaders.append(
                TextureShader(
                    name: "MetallicRoughness", texture: texture, colorSpace: "raw",
                    scale: SIMD4(1, material.roughnessFactor, material.metallicFactor, 1),
                    outputs: [("g", "float"), ("b", "float")]))
            inputs.append(("roughness", "float", nil, path + "/MetallicRoughness.outputs:g"))
            inputs.append(("metallic", "float", nil, path + "/MetallicRoughness.outputs:b"))
        } else {
            inputs.append(("roughness", "float", .float(material.roughnessFactor), nil))
            inputs.append(("metallic", "float", .float(material.metallicFactor), nil))
        }
        if let texture = material.normalTexture {
            // A normal map's 8-bit values map to −1…1: raw colour space, scale 2, bias −1 (what the checker asks).
            shaders.append(
                TextureShader(
                    name: "Normal", texture: texture, colorSpace: "raw", scale: SIMD4(2, 2, 2, 1),
                    bias: SIMD4(-1, -1, -1, 0), outputs: [("rgb", "float3")]))
            inputs.append(("normal", "normal3f", nil, path + "/Normal.outputs:rgb"))
        }
        if let texture = material.occlusionTexture {
            shaders.append(
                TextureShader(name: "Occlusion", texture: texture, colorSpace: "raw", outputs: [("r", "float")]))
            inputs.append(("occlusion", "float", nil, path + "/Occlusion.outputs:r"))
        }
        let emissive = material.emissiveFactor
        if let texture = material.emissiveTexture {
            shaders.append(
                TextureShader(
                    name: "Emissive", texture: texture, colorSpace: "sRGB",
                    scale: SIMD4(emissive.x, emissive.y, emissive.z, 1), outputs: [("rgb", "float3")]))
            inputs.append(("emissiveColor", "color3f", nil, path + "/Emissive.outputs:rgb"))
        } else if emissive != .zero {
            inputs.append(("emissiveColor", "color3f", .vec3f(emissive), nil))
        }
        let children = ["Surface"] + shaders.map(\.name) + (shaders.isEmpty ? [] : ["TexCoords"])
        crate.add(
            path, .prim,
            [
                ("specifier", .specifier(0)), ("typeName", .token("Material")),
                ("properties", .tokenVector(["outputs:surface"])), ("primChildren", .tokenVector(children)),
            ])
        attribute(path + ".outputs:surface", "token", nil, connection: surface + ".outputs:surface")
        shader(surface, id: "UsdPreviewSurface", properties: inputs.map { "inputs:" + $0.name } + ["outputs:surface"])
        for input in inputs {
            attribute(surface + ".inputs:" + input.name, input.type, input.value, connection: input.connection)
        }
        attribute(surface + ".outputs:surface", "token", nil)
        for texture in shaders { textureShader(texture, materialPath: path) }
        if !shaders.isEmpty {
            let reader = path + "/TexCoords"
            shader(reader, id: "UsdPrimvarReader_float2", properties: ["inputs:varname", "outputs:result"])
            attribute(reader + ".inputs:varname", "string", .string("st"))
            attribute(reader + ".outputs:result", "float2", nil)
        }
    }

    private mutating func textureShader(_ shader: TextureShader, materialPath: String) {
        usedTextures.insert(shader.texture)
        let path = materialPath + "/" + shader.name
        var properties = ["inputs:file", "inputs:st", "inputs:wrapS", "inputs:wrapT", "inputs:sourceColorSpace"]
        if shader.scale != nil { properties.append("inputs:scale") }
        if shader.bias != nil { properties.append("inputs:bias") }
        properties += shader.outputs.map { "outputs:" + $0.name }
        self.shader(path, id: "UsdUVTexture", properties: properties)
        attribute(
            path + ".inputs:file", "asset", .asset(Self.textureFile(shader.texture, model.textures[shader.texture])))
        attribute(path + ".inputs:st", "float2", nil, connection: materialPath + "/TexCoords.outputs:result")
        attribute(path + ".inputs:wrapS", "token", .token("repeat"))
        attribute(path + ".inputs:wrapT", "token", .token("repeat"))
        attribute(path + ".inputs:sourceColorSpace", "token", .token(shader.colorSpace))
        if let scale = shader.scale { attribute(path + ".inputs:scale", "float4", .vec4f(scale)) }
        if let bias = shader.bias { attribute(path + ".inputs:bias", "float4", .vec4f(bias)) }
        for output in shader.outputs { attribute(path + ".outputs:" + output.name, output.type, nil) }
    }

    private mutating func shader(_ path: String, id: String, properties: [String]) {
        crate.add(
            path, .prim,
            [
                ("specifier", .specifier(0)), ("typeName", .token("Shader")),
                ("properties", .tokenVector(["info:id"] + properties)),
            ])
        attribute(path + ".info:id", "token", .token(id), uniform: true)
    }
}
