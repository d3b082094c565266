import ARVisGraphics
import ARVisModel
import ARVisSpatial
import Foundation
import Testing

@testable import ARVisPipeline

/// A project's bubbles as a model: the film's colour by interference, the phone's pane mesh and
/// trail frames, and GLB (iridescence) and USDZ (baked colour) files that read back.
struct BubbleSceneTests {
    /// Linear sRGB of the film from an independent computation (Scripts/check_bubbles_ar.py's: exact
    /// complex Airy sums, colour-science's CIE tables every 1 nm), against ThinFilm's 5 nm sums.
    @Test(arguments: [
        (100.0, 0.0, SIMD3(0.07265, 0.07744, 0.07078)), (250, 0, SIMD3(-0.0071, 0.03514, 0.07897)),
        (400, 0, SIMD3(0.05633, 0.00086, 0.06261)), (550, 30, SIMD3(0.02521, 0.07647, 0.00705)),
        (700, 60, SIMD3(0.16116, 0.16037, 0.04737)),
    ])
    func theFilmsColourIsTheInterferenceSum(thickness: Double, angle: Double, expected: SIMD3<Double>) {
        let colour = ThinFilm().color(thickness: thickness, cosAngle: cos(angle * .pi / 180))
        let worst = (0..<3).map { abs(colour[$0] - expected[$0]) }.max() ?? 0
        #expect(worst < 0.003, "\(colour) against \(expected)")
    }

    @Test func aPerfectWhiteReflectorIsWhite() {
        let white = ThinFilm.weights.reduce(SIMD3<Double>.zero, +)
        #expect((0..<3).allSatisfy { abs(white[$0] - 1) < 0.01 }, "\(white)")
        #expect(ThinFilm().color(thickness: 0) == .zero, "a film of no thickness reflects nothing")
    }

    @Test func thePaneIsThePhonesMesh() throws {
        let mesh = BubbleScene.paneMesh()
        #expect(mesh.positions.count == 216 && mesh.triangleCount == 387, "pane-mesh.js's counts")
        let xs = mesh.positions.map(\.x)
        let ys = mesh.positions.map(\.y)
        #expect(abs(Double(xs.max()! - xs.min()!) - 0.6) < 1e-6 && abs(Double(ys.max()! - ys.min()!) - 0.4) < 1e-6)
        #expect(mesh.positions.allSatisfy { $0.z == 0 })
        // Every triangle faces +z (counter-clockwise seen from the front).
        for t in stride(from: 0, to: mesh.indices.count, by: 3) {
            let (a, b, c) = (
                mesh.positions[Int(mesh.indices[t])], mesh.positions[Int(mesh.indices[t + 1])],
                mesh.positions[Int(mesh.indices[t + 2])]
            )
            #expect(((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) > 0)
        }
    }

    /// A circle in the floor's plane: parallel transport keeps the normal the path's up, with no twist.
    @Test func aTrailsFramesDoNotTwist() {
        let points = (0..<200).map { k -> SIMD3<Double> in
            let angle = Double(k) * 0.02
            return SIMD3(cos(angle), 1, sin(angle))
        }
        let slices = BubbleScene.frames(up: SIMD3(0, 1, 0), along: points)
        #expect(slices.count == 200)
        #expect(slices.allSatisfy { abs($0.normal.y - 1) < 1e-9 }, "the normal stays up")
        #expect(slices.allSatisfy { abs($0.normal.dot($0.tangent)) < 1e-9 })
        #expect(abs(slices.last!.distance - 199 * 2 * sin(0.01)) < 1e-9, "the path's length")
        // A helix: neighbouring frames turn little.
        let helix = (0..<300).map { k -> SIMD3<Double> in
            let angle = Double(k) * 0.05
            return SIMD3(cos(angle), Double(k) * 0.01, sin(angle))
        }
        let turns = zip(
            BubbleScene.frames(up: SIMD3(0, 1, 0), along: helix).dropLast(),
            BubbleScene.frames(up: SIMD3(0, 1, 0), along: helix).dropFirst()
        )
        .map { $0.normal.dot($1.normal) }
        #expect(turns.allSatisfy { $0 > 0.99 })
    }

    private static let bubbles: [BubbleScene.Placed] = [
        .init(
            position: SIMD3(0, 1.2, -0.8), orientation: Rotation(axis: SIMD3(0, 1, 0), angle: 0.5),
            bubble: .pane(.init(width: 1.2, height: 0.4))),
        .init(
            position: SIMD3(1, 1, 0), orientation: .identity,
            bubble: .pane(.init(width: 0.6, height: 0.4, thicknessOffset: -250))),
        .init(
            position: SIMD3(0, 1, 0), orientation: .identity,
            bubble: .trail(.init(up: [0, 1, 0], points: [0, 0, 0, 20, 0, 0, 20, 0, 5, 20, 3, 5], thicknessOffset: 0))),
    ]

    @Test func theGLBsFilmIsIridescentAsDrawn() throws {
        let model = BubbleScene(Self.bubbles).model(.iridescent)
        #expect(model.materials.count == 2 && model.textures.count == 2, "one per colour offset")
        #expect(model.meshes.count == 3, "a pane mesh per offset and the trail's ribbon")
        let read = try ModelFile.read(GLBWriter().write(model), fileName: "bubbles.glb")
        let films = read.materials.compactMap(\.iridescence)
        #expect(films.count == 2 && films.allSatisfy { abs($0.index - 1.33) < 1e-6 })
        // The pattern's thinnest and thickest texels (numpy over the same 64 × 32 grid: 124.45, 675.35).
        let plain = try #require(films.first { $0.thicknessRange.lowerBound > 50 })
        #expect(
            abs(plain.thicknessRange.lowerBound - 124.45) < 0.01 && abs(plain.thicknessRange.upperBound - 675.35) < 0.01
        )
        let thin = try #require(films.first { $0.thicknessRange.lowerBound < 50 })
        #expect(thin.thicknessRange.lowerBound == 0, "a film is never thinner than nothing")
        #expect(read.materials.allSatisfy { $0.iridescenceThicknessTexture != nil && $0.alphaMode == .blend })
        // The first pane: its centre where it was blown, 1.2 m wide.
        let pane = try #require(read.instances.first { read.meshes[$0.mesh].positions.count == 216 })
        let centre = pane.transform * SIMD4(0, 0, 0, 1)
        #expect(abs(centre.x) < 1e-9 && abs(centre.y - 1.2) < 1e-9 && abs(centre.z + 0.8) < 1e-9)
        let right = pane.transform * SIMD4(0.3, 0, 0, 0)
        #expect(
            abs((right.x * right.x + right.y * right.y + right.z * right.z).squareRoot() - 0.6) < 1e-6, "1.2 m wide")
    }

    @Test func theUSDZBakesTheFilmsColourSeenFaceOn() throws {
        let model = BubbleScene(Self.bubbles).model(.baked)
        #expect(model.materials.allSatisfy { $0.iridescence == nil && $0.baseColorTexture != nil })
        // The texel at the pattern's (u, v): the film's colour there, four times as bright, sRGB.
        let texture = try #require(model.textures.first { $0.name == "film+0nm" })
        let image = try RasterImage(decoding: texture.data)
        let (column, row) = (10, 20)
        let u = 2 * (Double(column) + 0.5) / 64
        let v = (Double(row) + 0.5) / 32
        let linear = ThinFilm().color(thickness: BubbleScene.thickness(u: u, v: v).rounded()) * 4
        for channel in 0..<3 {
            let encoded =
                linear[channel] <= 0.0031308 ? 12.92 * linear[channel] : 1.055 * pow(linear[channel], 1 / 2.4) - 0.055
            let expected = Int((min(max(encoded, 0), 1) * 255).rounded())
            #expect(abs(Int(image.pixels[(row * image.width + column) * 4 + channel]) - expected) <= 1)
        }
        #expect(abs(Int(image.pixels[(row * image.width + column) * 4 + 3]) - 115) <= 1, "opacity 0.45")
        let usdz = try USDZWriter().write(model)
        let back = try ModelFile.read(usdz, fileName: "bubbles.usdz")
        #expect(back.textures.count == model.textures.count)
    }
}
