public import ARVisSpatial
public import ARVisSupport

/// A mesh drawn at a place in the model: the mesh's index and its node's world transform.
public struct MeshInstance: Sendable, Hashable {
    /// Index into ``Model/meshes``.
    public var mesh: Int
    /// From the mesh's frame to the model's.
    public var transform: Matrix4
}

extension Model {
    /// The most nodes, meshes, vertices and triangles, and the deepest hierarchy, a reader accepts.
    public struct Limits: Sendable, Hashable {
        /// The most nodes.
        public var nodes = 100_000
        /// The most vertices over all meshes.
        public var vertices = 20_000_000
        /// The most triangles over all meshes.
        public var triangles = 20_000_000
        /// The most triangles drawn: each mesh counted once per node that draws it, so a small file
        /// drawing one large mesh from many nodes (an instancing bomb) is refused before any work.
        public var drawnTriangles = 20_000_000
        /// The deepest node hierarchy.
        public var depth = 256
        /// The most texture images (each distinct picture is decoded at most once, within the
        /// renderer's pixel budget).
        public var textures = 1_024

        /// The default limits.
        public init() {}
    }

    /// Every mesh drawn, with the world transform of the node that draws it, in depth-first order.
    public var instances: [MeshInstance] {
        var result: [MeshInstance] = []
        func visit(_ index: Int, _ parent: Matrix4, depth: Int) {
            guard nodes.indices.contains(index), depth < 1024 else { return }
            let world = parent * nodes[index].transform
            for mesh in nodes[index].meshes where meshes.indices.contains(mesh) {
                result.append(MeshInstance(mesh: mesh, transform: world))
            }
            for child in nodes[index].children { visit(child, world, depth: depth + 1) }
        }
        for root in roots { visit(root, .identity, depth: 0) }
        return result
    }

    /// The box around every drawn vertex in the model's frame, or `nil` when nothing is drawn.
    public var bounds: Box? {
        var low = SIMD3<Double>(repeating: .infinity)
        var high = SIMD3<Double>(repeating: -.infinity)
        for instance in instances {
            let m = instance.transform
            let (c0, c1, c2, c3) = (m.columns[0], m.columns[1], m.columns[2], m.columns[3])
            for p in meshes[instance.mesh].positions {
                let q = c0 * Double(p.x) + c1 * Double(p.y) + c2 * Double(p.z) + c3
                let v = SIMD3(q.x, q.y, q.z)
                low = pointwiseMin(low, v)
                high = pointwiseMax(high, v)
            }
        }
        guard low.x <= high.x else { return nil }
        return Box(low, high)
    }

    /// Triangles drawn, counting a mesh once per node that draws it.
    public var drawnTriangleCount: Int { instances.reduce(0) { $0 + meshes[$1.mesh].triangleCount } }

    /// Vertices drawn, counting a mesh once per node that draws it.
    public var drawnVertexCount: Int { instances.reduce(0) { $0 + meshes[$1.mesh].positions.count } }

    /// The model without its meshes that draw no triangle, the nodes' mesh indices renumbered. Such
    /// a mesh shows nothing, and glTF has no empty accessor to write it with.
    public func droppingEmptyMeshes() -> Model {
        guard meshes.contains(where: { $0.triangleCount == 0 }) else { return self }
        var model = self
        var renumbered: [Int?] = []
        model.meshes = []
        for mesh in meshes {
            renumbered.append(mesh.triangleCount > 0 ? model.meshes.count : nil)
            if mesh.triangleCount > 0 { model.meshes.append(mesh) }
        }
        for index in model.nodes.indices {
            model.nodes[index].meshes = model.nodes[index].meshes.compactMap {
                renumbered.indices.contains($0) ? renumbered[$0] : nil
            }
        }
        return model
    }

    /// Checks what readers must guarantee: every index in range, the nodes a forest (no cycles, no
    /// node with two parents) within the depth limit, every number finite, attributes one per vertex.
    /// - Throws: ``ModelError`` `invalid` naming the first offending element, `tooLarge` past `limits`.
    public func validate(limits: Limits = Limits()) throws(ModelError) {
        guard nodes.count <= limits.nodes else {
            throw ModelError(.tooLarge, "the model has \(nodes.count) nodes, more than the \(limits.nodes) allowed")
        }
        var parentCount = [Int](repeating: 0, count: nodes.count)
        for (index, node) in nodes.enumerated() {
            for child in node.children {
                guard nodes.indices.contains(child) else {
                    throw ModelError(.invalid, "child \(child) does not exist", location: "nodes[\(index)]")
                }
                parentCount[child] += 1
                guard parentCount[child] == 1 else {
                    throw ModelError(.invalid, "node \(child) has more than one parent", location: "nodes[\(index)]")
                }
            }
            for mesh in node.meshes where !meshes.indices.contains(mesh) {
                throw ModelError(.invalid, "mesh \(mesh) does not exist", location: "nodes[\(index)]")
            }
            guard node.transform.columnMajor.allSatisfy(\.isFinite) else {
                throw ModelError(.invalid, "the transform is not finite", location: "nodes[\(index)]")
            }
        }
        for root in roots {
            guard nodes.indices.contains(root), parentCount[root] == 0 else {
                throw ModelError(.invalid, "root \(root) does not exist or has a parent", location: "scene")
            }
        }
        try checkDepth(limits: limits)
        var vertices = 0
        var triangles = 0
        for (index, mesh) in meshes.enumerated() {
            vertices += mesh.positions.count
            triangles += mesh.triangleCount
            try mesh.validate(materials: materials.count, location: "meshes[\(index)]")
        }
        guard vertices <= limits.vertices, triangles <= limits.triangles else {
            throw ModelError(
                .tooLarge,
                "the model has \(vertices) vertices and \(triangles) triangles; at most \(limits.vertices) and \(limits.triangles) are allowed"
            )
        }
        try checkDrawnTriangles(limits: limits)
        guard textures.count <= limits.textures else {
            throw ModelError(
                .tooLarge, "the model has \(textures.count) textures, more than the \(limits.textures) allowed")
        }
        for (index, material) in materials.enumerated() {
            for texture in material.textureIndices where !textures.indices.contains(texture) {
                throw ModelError(.invalid, "texture \(texture) does not exist", location: "materials[\(index)]")
            }
        }
    }

    /// Refuses models that draw more triangles than the limit, counting each mesh once per node
    /// that draws it (without listing the instances, so the count itself stays cheap).
    public func checkDrawnTriangles(limits: Limits = Limits()) throws(ModelError) {
        var drawn = 0
        var stack = roots
        while let index = stack.popLast() {
            guard nodes.indices.contains(index) else { continue }
            for mesh in nodes[index].meshes where meshes.indices.contains(mesh) {
                drawn += meshes[mesh].triangleCount
                guard drawn <= limits.drawnTriangles else {
                    throw ModelError(
                        .tooLarge,
                        "the model draws more than \(limits.drawnTriangles) triangles (each mesh counted once per node that draws it): simplify it or use fewer instances"
                    )
                }
            }
            stack += nodes[index].children
        }
    }

    /// Refuses hierarchies deeper than the limit and nodes reachable in a cycle (walked iteratively).
    private func checkDepth(limits: Limits) throws(ModelError) {
        var stack = roots.map { ($0, 1) }
        var seen = Set<Int>()
        while let (index, depth) = stack.popLast() {
            guard depth <= limits.depth else {
                throw ModelError(
                    .tooLarge, "the node hierarchy is deeper than \(limits.depth) levels", location: "nodes[\(index)]")
            }
            guard seen.insert(index).inserted else {
                throw ModelError(.invalid, "the node hierarchy has a cycle", location: "nodes[\(index)]")
            }
            stack += nodes[index].children.map { ($0, depth + 1) }
        }
    }
}

extension Mesh {
    /// Checks indices, attribute counts and finiteness.
    func validate(materials: Int, location: String) throws(ModelError) {
        guard indices.count % 3 == 0 else {
            throw ModelError(.invalid, "the index count \(indices.count) is not a multiple of 3", location: location)
        }
        guard normals.isEmpty || normals.count == positions.count, uvs.isEmpty || uvs.count == positions.count else {
            throw ModelError(.invalid, "normals or texture coordinates are not one per vertex", location: location)
        }
        let count = UInt32(clamping: positions.count)
        guard indices.allSatisfy({ $0 < count }) else {
            throw ModelError(.invalid, "a triangle names a vertex that does not exist", location: location)
        }
        guard positions.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }),
            uvs.allSatisfy({ $0.x.isFinite && $0.y.isFinite }),
            normals.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
        else {
            throw ModelError(.invalid, "a vertex attribute is not a finite number", location: location)
        }
        if let material, !(0..<materials).contains(material) {
            throw ModelError(.invalid, "material \(material) does not exist", location: location)
        }
    }
}

extension Model {
    /// Adds `other` (normalised to metres, +Y up) as a child of node `parent` (a new root when `nil`),
    /// placed by `transform`; its meshes, materials and textures are appended.
    /// - Returns: the index of the node holding `other`'s roots.
    @discardableResult
    public mutating func insert(_ other: Model, name: String, transform: Matrix4, under parent: Int? = nil) -> Int {
        let other = other.normalized()
        let nodeBase = nodes.count + 1
        let meshBase = meshes.count
        let materialBase = materials.count
        let textureBase = textures.count
        let holder = nodes.count
        nodes.append(Node(name: name, transform: transform, children: other.roots.map { $0 + nodeBase }))
        nodes += other.nodes.map { node in
            Node(
                name: node.name, transform: node.transform, children: node.children.map { $0 + nodeBase },
                meshes: node.meshes.map { $0 + meshBase })
        }
        meshes += other.meshes.map { mesh in
            var mesh = mesh
            mesh.material = mesh.material.map { $0 + materialBase }
            return mesh
        }
        materials += other.materials.map { material in
            var material = material
            for keyPath in Material.textureKeyPaths {
                material[keyPath: keyPath] = material[keyPath: keyPath].map { $0 + textureBase }
            }
            return material
        }
        textures += other.textures.map { $0.offsettingSources(by: textureBase) }
        if let parent { nodes[parent].children.append(holder) } else { roots.append(holder) }
        return holder
    }
}
