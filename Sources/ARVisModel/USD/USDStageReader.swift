import ARVisSpatial
import ARVisSupport

/// Turns a USD layer (from a crate or a text file) into a ``Model``: `Xform`s and other prims become
/// nodes with the transform of their `xformOpOrder`, `Mesh` prims become triangle meshes (polygons
/// fanned, vertex, face-varying, uniform and indexed primvars unwelded where they must be,
/// `GeomSubset`s split by material), and bound `UsdPreviewSurface` materials become PBR materials
/// with the package's textures.
struct USDStageReader {
    let layer: USDLayer
    /// The package's other files by path (textures), and the root layer's folder inside it.
    let files: [String: ArraySlice<UInt8>]
    let folder: String
    /// Loads a file beside a loose layer (its textures); `nil` outside packages refuses them.
    var external: ((String) throws(ModelError) -> [UInt8])?
    var limits = Model.Limits()
    var warnings: [String] = []

    var model = Model()
    private var children: [String: [String]] = [:]
    var materialIndex: [String: Int?] = [:]
    var textureIndex: [String: Int?] = [:]
    private var skippedTypes = Set<String>()

    init(layer: USDLayer, files: [String: ArraySlice<UInt8>] = [:], folder: String = "") {
        self.layer = layer
        self.files = files
        self.folder = folder
    }

    mutating func read() throws(ModelError) -> Model {
        for path in layer.specs.keys where path != "/" && layer.specs[path]?.type == .prim {
            children[USDStageReader.parent(of: path), default: []].append(path)
        }
        model.metersPerUnit = layer.layerField("metersPerUnit")?.number ?? 0.01
        if !(model.metersPerUnit > 0 && model.metersPerUnit.isFinite) { model.metersPerUnit = 1 }
        model.upAxis = layer.layerField("upAxis")?.text == "Z" ? .z : .y
        var depth = 0
        model.roots = try childNodes(of: "/", binding: nil, depth: &depth)
        for type in skippedTypes.sorted() { warnings.append("prims of type \(type) are not drawn") }
        try model.validate(limits: limits)
        return model
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The last element of a prim path: `Cube` of `/Root/Cube`.
    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    func field(_ path: String, _ name: String) -> USDValue? { layer.specs[path]?.fields[name] }

    /// The prim's children in `primChildren` order, then any the field does not list.
    private func childPrims(_ path: String) -> [String] {
        let found = children[path] ?? []
        let prefix = path == "/" ? "/" : path + "/"
        let listed = (field(path, "primChildren")?.strings ?? []).map { prefix + $0 }.filter { layer.specs[$0] != nil }
        let listedSet = Set(listed)
        return listed + found.filter { !listedSet.contains($0) }.sorted()
    }

    private mutating func childNodes(of path: String, binding: String?, depth: inout Int) throws(ModelError) -> [Int] {
        var result: [Int] = []
        for child in childPrims(path) {
            if let node = try node(child, inheritedBinding: binding, depth: depth + 1) { result.append(node) }
        }
        return result
    }

    /// The node of a prim and its subtree, or `nil` for prims that draw nothing (materials,
    /// classes, invisible prims).
    private mutating func node(_ path: String, inheritedBinding: String?, depth: Int) throws(ModelError) -> Int? {
        guard depth <= limits.depth else {
            throw ModelError(.tooLarge, "the prim hierarchy is deeper than \(limits.depth) levels", location: path)
        }
        guard model.nodes.count < limits.nodes else {
            throw ModelError(.tooLarge, "the file has more than \(limits.nodes) prims", location: path)
        }
        let type = field(path, "typeName")?.text ?? ""
        let specifier = field(path, "specifier")?.number ?? 0
        guard specifier != 2, field(path, "active").map({ if case .bool(false) = $0 { false } else { true } }) ?? true,
            field(path, "visibility")?.text != "invisible",
            !["guide", "proxy"].contains(field(path, "purpose")?.text ?? "")
        else { return nil }
        switch type {
        case "Material", "Shader", "NodeGraph", "Preliminary_ReferenceImage", "Preliminary_Behavior",
            "Preliminary_Trigger", "Preliminary_Action",
            "GeomSubset", "Camera", "Skeleton", "SkelAnimation", "BlendShape":
            return nil
        case "", "Xform", "Scope", "SkelRoot", "Mesh":
            break
        default:
            if type.hasPrefix("RealityKit") || type.hasSuffix("Light") || type.hasSuffix("LightAPI") { return nil }
            skippedTypes.insert(type)
        }
        let binding = materialBinding(path) ?? inheritedBinding
        let transform = try localTransform(path)
        let index = model.nodes.count
        model.nodes.append(
            Node(name: USDStageReader.name(of: path), transform: transform))
        if type == "Mesh" { model.nodes[index].meshes = try meshes(path, binding: binding) }
        var depth = depth
        model.nodes[index].children = try childNodes(of: path, binding: binding, depth: &depth)
        // A scope left empty (one that held only materials) is dropped.
        if type == "Scope", model.nodes[index].children.isEmpty, index == model.nodes.count - 1 {
            model.nodes.removeLast()
            return nil
        }
        return index
    }

    /// The material a prim binds directly, by `material:binding` (the all-purpose binding).
    func materialBinding(_ path: String) -> String? {
        field(path + ".material:binding", "targetPaths")?.strings?.first
    }
}
