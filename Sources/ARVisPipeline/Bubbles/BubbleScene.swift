import ARVisGraphics
public import ARVisModel
public import ARVisSpatial
import Foundation

/// A project's bubbles (panes and trails blown with the phone's Bubbles tool) as one model, drawn
/// as the phone draws them when still: each pane the seed's rounded 0.6 × 0.4 m mesh scaled to its
/// size, each trail its ribbon of slices (parallel-transport frames, 0.15 m either side of the
/// path), the film's thickness the phone's pattern (400 ± 300 nm, offset by the bubble's colour
/// choice) at time 0, each pane at its own phase.
///
/// The film is written one of two ways (``Film``): as glTF's `KHR_materials_iridescence`, the
/// thickness in a texture, for viewers that compute interference; or baked, a colour texture of
/// the film seen face on, for USD, which has no iridescence (AR Quick Look).
///
/// ```swift
/// let glb = try GLBWriter().write(BubbleScene(bubbles).model(.iridescent))
/// ```
public struct BubbleScene: Sendable {
    /// A bubble where it was blown: its anchor's pose in the project's frame.
    public struct Placed: Sendable {
        /// A pane's centre, or a trail's anchor position (its points are offsets from it), metres.
        public var position: SIMD3<Double>
        /// A pane's turn (it faces its local +z); a trail ignores it.
        public var orientation: Rotation
        /// The pane or trail.
        public var bubble: Bubble

        /// Creates a placed bubble.
        public init(position: SIMD3<Double>, orientation: Rotation, bubble: Bubble) {
            (self.position, self.orientation, self.bubble) = (position, orientation, bubble)
        }
    }

    /// How the film is written.
    public enum Film: Sendable {
        /// `KHR_materials_iridescence` with the film's index and thickness range, the thickness in a
        /// texture's green channel (glTF).
        case iridescent
        /// A colour texture: the film's colour seen face on, as bright as the phone shows it (USD).
        case baked
    }

    /// The bubbles.
    public var bubbles: [Placed]

    /// Creates the scene of `bubbles`.
    public init(_ bubbles: [Placed]) {
        self.bubbles = bubbles
    }

    /// The film's refractive index, and the gain the phone draws its reflected colour with.
    static let film = ThinFilm(index: 1.33)
    static let reflectedGain = 4.0
    /// The film's texture's texels: two periods of the pattern along (u from 0 to 2), one across.
    static let textureSize = (width: 64, height: 32)

    /// Which film a material draws: a colour offset (nm) and a phase (s).
    struct FilmKey: Hashable {
        var offset: Double
        var phase: Double

        /// A film within a bubble's rules whatever a hand-made ``Bubble`` holds (a payload read by
        /// ``Bubble/init(payload:)`` is within them already): the offset clamped to
        /// ``Bubble/thicknessOffsets``, a phase outside ``Bubble/phases`` taken as 0, anything not a
        /// number as 0. So every thickness below is finite and every conversion to an integer holds.
        init(_ offset: Double, phase: Double) {
            let offsets = Bubble.thicknessOffsets
            self.offset = offset.isNaN ? 0 : min(max(offset, offsets.lowerBound), offsets.upperBound)
            self.phase = Bubble.phases.contains(phase) ? phase : 0
        }
    }

    /// The model: a root "Bubbles" whose children are the panes and trails, one material (and one
    /// texture) per film: per colour offset and phase.
    public func model(_ film: Film) -> Model {
        var model = Model(nodes: [Node(name: "Bubbles")], roots: [0])
        var materialOfFilm: [FilmKey: Int] = [:]
        var paneMeshOfMaterial: [Int: Int] = [:]
        let pane = Self.paneMesh()
        for placed in bubbles {
            let key: FilmKey
            switch placed.bubble {
            case .pane(let bubble): key = FilmKey(bubble.thicknessOffset, phase: bubble.phase)
            case .trail(let bubble): key = FilmKey(bubble.thicknessOffset, phase: 0)
            }
            let material = materialOfFilm[key] ?? Self.addMaterial(key, film, to: &model)
            materialOfFilm[key] = material
            let node: Node
            switch placed.bubble {
            case .pane(let bubble):
                let mesh = paneMeshOfMaterial[material] ?? model.meshes.count
                if mesh == model.meshes.count {
                    var drawn = pane
                    drawn.material = material
                    model.meshes.append(drawn)
                    paneMeshOfMaterial[material] = mesh
                }
                node = Node(name: "Pane", transform: Self.transform(of: placed, bubble), meshes: [mesh])
            case .trail(let bubble):
                var ribbon = Self.ribbon(bubble)
                ribbon.material = material
                model.meshes.append(ribbon)
                node = Node(
                    name: "Trail",
                    transform: Matrix4(columns: [
                        SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0),
                        SIMD4(placed.position.x, placed.position.y, placed.position.z, 1),
                    ]),
                    meshes: [model.meshes.count - 1])
            }
            model.nodes[0].children.append(model.nodes.count)
            model.nodes.append(node)
        }
        return model
    }

    // MARK: The film

    /// The film's thickness (nm) at `(u, v)` of a pane (both 0…1) or a trail (u the distance along
    /// it over 0.6 m) at time `t` (s), before the offset: the phone's pattern, within 100 to 700 nm.
    static func thickness(u: Double, v: Double, t: Double = 0) -> Double {
        400 + 200 * sin(6.283 * u + 0.5 * t) * cos(6.283 * v + 0.7 * t) + 100 * sin(3.14 * (u + v) + 0.3 * t)
    }

    /// Adds the material (and its texture) of `key`'s film.
    private static func addMaterial(_ key: FilmKey, _ film: Film, to model: inout Model) -> Int {
        let (width, height) = textureSize
        var thicknesses: [Double] = []
        thicknesses.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width {
                let u = 2 * (Double(column) + 0.5) / Double(width)
                let v = (Double(row) + 0.5) / Double(height)
                thicknesses.append(min(max(thickness(u: u, v: v, t: key.phase) + key.offset, 0), 1_000))
            }
        }
        let thinnest = thicknesses.min() ?? 0
        let thickest = thicknesses.max() ?? 0
        let name = "film\(key.offset >= 0 ? "+" : "")\(Int(key.offset.rounded()))nm"
        var material = Material(
            name: name, metallicFactor: 0, roughnessFactor: 0.1, alphaMode: .blend, doubleSided: true)
        let picture: [UInt8]
        switch film {
        case .iridescent:
            // The thickness in green (all three channels), 0 the thinnest, 1 the thickest.
            let levels = thicknesses.map { thickest > thinnest ? ($0 - thinnest) / (thickest - thinnest) : 0 }
            picture = PNGEncoder.encode(
                width: width, height: height, rgb: levels.flatMap { Array(repeating: byte($0), count: 3) })
            material.baseColorFactor = SIMD4(1, 1, 1, 0.2)
            material.iridescence = Material.Iridescence(
                factor: 1, index: Float(Self.film.index), thicknessRange: Float(thinnest)...Float(thickest))
            material.iridescenceThicknessTexture = model.textures.count
        case .baked:
            // The film seen face on, as bright as the phone draws its reflection, over a film of
            // opacity `bakedOpacity` (premultiplied, sRGB-encoded).
            var pixels: [Float] = []
            pixels.reserveCapacity(thicknesses.count * 4)
            for thickness in thicknesses {
                let colour = Self.facingColours[Int(thickness.rounded())] * reflectedGain
                for channel in 0..<3 {
                    pixels.append(Float(srgbEncoded(min(max(colour[channel], 0), 1)) * bakedOpacity))
                }
                pixels.append(Float(bakedOpacity))
            }
            picture = pixels.withUnsafeBufferPointer {
                PNGEncoder.encode(width: width, height: height, premultiplied: $0)
            }
            material.baseColorTexture = model.textures.count
        }
        model.textures.append(Texture(name: name, data: picture, format: .png))
        model.materials.append(material)
        return model.materials.count - 1
    }

    /// The film's colour seen face on, every nanometre from 0 to 1 000 nm (what a texel is baked from).
    static let facingColours = (0...1_000).map { film.color(thickness: Double($0)) }

    /// How much of the light behind a baked film it keeps out (the phone's Fresnel-weighted
    /// opacity runs from 0.06 face on to 0.45 at grazing; a baked film has no angle, so the most).
    static let bakedOpacity = 0.45

    /// A value 0…1 as a byte.
    private static func byte(_ value: Double) -> UInt8 {
        value.isNaN ? 0 : UInt8((min(max(value, 0), 1) * 255).rounded())
    }

    /// A linear value sRGB-encoded (IEC 61966-2-1).
    private static func srgbEncoded(_ linear: Double) -> Double {
        linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    // MARK: Panes

    /// The seed's pane: width and height, and the corners' radius (m).
    static let paneSize = (width: 0.6, height: 0.4)
    static let cornerRadius = 0.02

    /// Translation × turn × the pane's size against the seed's (the phone scales its mesh so).
    static func transform(of placed: Placed, _ pane: Bubble.Pane) -> Matrix4 {
        let rows = placed.orientation.matrix
        let scale = [pane.width / paneSize.width, pane.height / paneSize.height, 1]
        let columns = (0..<3).map { column in
            SIMD4(rows[0][column] * scale[column], rows[1][column] * scale[column], rows[2][column] * scale[column], 0)
        }
        return Matrix4(columns: columns + [SIMD4(placed.position.x, placed.position.y, placed.position.z, 1)])
    }

    /// The outline of a `width` × `height` rectangle with corners of `radius`, centred on the origin,
    /// counter-clockwise from the right edge's middle: four segments on each corner and the straight
    /// edges cut in pieces no longer than 7.5 cm (`xr/bubbles/pane-mesh.js`'s).
    static func roundedOutline(width: Double, height: Double, radius: Double) -> [SIMD2<Double>] {
        let (w, h) = (width / 2 - radius, height / 2 - radius)
        var points: [SIMD2<Double>] = []
        func edge(_ from: SIMD2<Double>, _ to: SIMD2<Double>) {
            let length = ((to - from) * (to - from)).sum().squareRoot()
            let pieces = max(1, Int((length / 0.075).rounded(.up)))
            for k in 0..<pieces { points.append(from + (to - from) * Double(k) / Double(pieces)) }
        }
        let corners = [SIMD2(w, h), SIMD2(-w, h), SIMD2(-w, -h), SIMD2(w, -h)]
        edge(SIMD2(width / 2, 0), SIMD2(width / 2, h))
        for (quarter, corner) in corners.enumerated() {
            for k in 0..<4 {
                let angle = (Double(quarter) + Double(k) / 4) * .pi / 2
                points.append(corner + radius * SIMD2(cos(angle), sin(angle)))
            }
            let end = Double(quarter + 1) * .pi / 2
            let turn = radius * SIMD2(cos(end), sin(end))
            edge(corner + turn, quarter == 3 ? SIMD2(width / 2, 0) : corners[quarter + 1] + turn)
        }
        return points
    }

    /// The seed's pane as rings around its centre (`pane-mesh.js`'s five): 216 vertices, 387
    /// triangles, in z = 0 facing +z.
    static func paneMesh(rings: Int = 5) -> Mesh {
        let (width, height) = paneSize
        let outline = roundedOutline(width: width, height: height, radius: cornerRadius)
        let count = outline.count
        var positions: [SIMD3<Float>] = [.zero]
        var uvs: [SIMD2<Float>] = [textureCoordinate(u: 0.5, v: 0.5)]
        for ring in 1...rings {
            for point in outline {
                let at = point * Double(ring) / Double(rings)
                positions.append(SIMD3(Float(at.x), Float(at.y), 0))
                uvs.append(textureCoordinate(u: at.x / width + 0.5, v: at.y / height + 0.5))
            }
        }
        var indices: [UInt32] = []
        for k in 0..<count { indices += [0, UInt32(1 + k), UInt32(1 + (k + 1) % count)] }
        for ring in 1..<rings {
            let inner = 1 + (ring - 1) * count
            let outer = inner + count
            for k in 0..<count {
                let next = (k + 1) % count
                indices += [inner + k, outer + k, outer + next, inner + k, outer + next, inner + next].map {
                    UInt32($0)
                }
            }
        }
        return Mesh(
            name: "Pane", positions: positions, normals: Array(repeating: SIMD3(0, 0, 1), count: positions.count),
            uvs: uvs, indices: indices)
    }

    /// Where the pattern's `(u, v)` lies in the film's texture, which holds two periods along.
    static func textureCoordinate(u: Double, v: Double) -> SIMD2<Float> { SIMD2(Float(u / 2), Float(v)) }

    // MARK: Trails

    /// The ribbon's half-width (m) and the path the pattern repeats along (m), as the phone has them.
    static let sliceRadius = 0.15
    static let patternLength = 0.6

    /// A trail's ribbon, its vertices relative to its anchor's position: the slices' edges joined
    /// slice to slice (`xr/bubbles/trail.js`'s construction, so the frames are the phone's).
    static func ribbon(_ trail: Bubble.Trail) -> Mesh {
        // Whole millimetres summed first, as the phone does, so the frames are the phone's to the bit.
        var points: [SIMD3<Double>] = []
        var millimetres = SIMD3<Int>.zero
        for k in stride(from: 0, to: trail.points.count - 2, by: 3) {
            millimetres &+= SIMD3(trail.points[k], trail.points[k + 1], trail.points[k + 2])
            let at = SIMD3<Double>(Double(millimetres.x), Double(millimetres.y), Double(millimetres.z)) / 1_000
            if points.last != at { points.append(at) }
        }
        // A trail read from a payload has a three-number up; one made by hand may not: y then.
        let up = trail.up.count == 3 ? SIMD3(trail.up[0], trail.up[1], trail.up[2]) : SIMD3<Double>(0, 1, 0)
        let slices = frames(up: up, along: points)
        var positions: [SIMD3<Float>] = []
        var normals: [SIMD3<Float>] = []
        var uvs: [SIMD2<Float>] = []
        var indices: [UInt32] = []
        for (index, slice) in slices.enumerated() {
            // The triangles below turn counter-clockwise about normal × tangent: that is their front.
            let facing = slice.normal.cross(slice.tangent).normalized
            for side in 0..<2 {
                let edge = slice.position + slice.normal * (side == 0 ? -sliceRadius : sliceRadius)
                positions.append(SIMD3(Float(edge.x), Float(edge.y), Float(edge.z)))
                normals.append(SIMD3(Float(facing.x), Float(facing.y), Float(facing.z)))
                uvs.append(textureCoordinate(u: slice.distance / patternLength, v: Double(side)))
            }
            if index > 0 {
                let i = UInt32(2 * (index - 1))
                indices += [i, i + 1, i + 3, i, i + 3, i + 2]
            }
        }
        return Mesh(name: "Trail", positions: positions, normals: normals, uvs: uvs, indices: indices)
    }

    /// One slice of a ribbon.
    struct Slice {
        var position: SIMD3<Double>
        var tangent: SIMD3<Double>
        var normal: SIMD3<Double>
        var distance: Double
    }

    /// The slices' frames along `points` (distinct, in order): the first slice's normal is `up` made
    /// orthogonal to the path, each next one carried by parallel transport; a slice between two
    /// steps takes the mean of their directions. Empty for fewer than two points.
    static func frames(up: SIMD3<Double>, along points: [SIMD3<Double>]) -> [Slice] {
        guard points.count >= 2 else { return [] }
        var slices: [Slice] = []
        for (index, point) in points.enumerated().dropFirst() {
            let step = point - points[index - 1]
            let tangent = step / step.length
            if slices.isEmpty {
                let across = up - tangent * up.dot(tangent)
                let normal =
                    across.length > 1e-6
                    ? across.normalized
                    : tangent.cross(abs(tangent.x) < 0.9 ? SIMD3<Double>(1, 0, 0) : SIMD3<Double>(0, 1, 0)).normalized
                slices.append(Slice(position: points[0], tangent: tangent, normal: normal, distance: 0))
            } else {
                var last = slices[slices.count - 1]
                let sum = last.tangent + tangent
                let mean = sum.length > 1e-6 ? sum.normalized : tangent
                last.normal = transport(last.normal, from: last.tangent, to: mean)
                last.tangent = mean
                slices[slices.count - 1] = last
            }
            let last = slices[slices.count - 1]
            slices.append(
                Slice(
                    position: point, tangent: tangent, normal: transport(last.normal, from: last.tangent, to: tangent),
                    distance: last.distance + step.length))
        }
        return slices
    }

    /// `normal` carried from a slice with unit tangent `from` to one with unit tangent `to`: turned
    /// by the angle between them about `from × to`, then made orthogonal to `to` and unit again.
    static func transport(_ normal: SIMD3<Double>, from: SIMD3<Double>, to: SIMD3<Double>) -> SIMD3<Double> {
        let axis = from.cross(to)
        let length = axis.length
        let turned =
            length > 1e-9 ? Rotation(axis: axis, angle: atan2(length, from.dot(to))).apply(normal) : normal
        return (turned - to * turned.dot(to)).normalized
    }
}
