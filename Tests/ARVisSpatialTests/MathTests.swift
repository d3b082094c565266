import ARVisSpatial
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

extension Rotation {
    static func random(using generator: inout SeededGenerator) -> Rotation {
        Rotation(
            x: .random(in: -1...1, using: &generator), y: .random(in: -1...1, using: &generator),
            z: .random(in: -1...1, using: &generator), w: .random(in: -1...1, using: &generator))
    }
}

func randomVector(_ range: ClosedRange<Double>, using generator: inout SeededGenerator) -> Vec3 {
    Vec3(
        .random(in: range, using: &generator), .random(in: range, using: &generator),
        .random(in: range, using: &generator))
}

struct RotationTests {
    @Test func quaternionMatrixAndEulerRoundTrip() {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<1000 {
            let rotation = Rotation.random(using: &generator)
            #expect(Rotation(matrix: rotation.matrix).angle(to: rotation) < 1e-9)
            #expect(Rotation(sceneKitEuler: rotation.sceneKitEuler).angle(to: rotation) < 1e-7)
            let euler = Vec3(
                .random(in: -1.5...1.5, using: &generator), .random(in: -1.5...1.5, using: &generator),
                .random(in: -3...3, using: &generator))
            #expect((Rotation(sceneKitEuler: euler).sceneKitEuler - euler).length < 1e-9)
        }
    }

    @Test func sceneKitEulerAppliesRollThenYawThenPitch() {
        let euler = Vec3(0.3, -0.7, 1.1)
        let composed = Rotation(axis: Vec3(1, 0, 0), angle: 0.3)
            .concatenating(Rotation(axis: Vec3(0, 1, 0), angle: -0.7))
            .concatenating(Rotation(axis: Vec3(0, 0, 1), angle: 1.1))
        #expect(Rotation(sceneKitEuler: euler).angle(to: composed) < 1e-12)
        // Yaw +90° turns the camera's front (0, 0, −1) to (−1, 0, 0).
        #expect((Rotation(sceneKitEuler: Vec3(0, .pi / 2, 0)).apply(Vec3(0, 0, -1)) - Vec3(-1, 0, 0)).length < 1e-12)
    }

    @Test func gimbalLockStillRoundTripsTheRotation() {
        let rotation = Rotation(sceneKitEuler: Vec3(0.4, .pi / 2, 0.25))
        #expect(Rotation(sceneKitEuler: rotation.sceneKitEuler).angle(to: rotation) < 1e-7)
    }

    @Test func slerpRunsBetweenItsEnds() {
        let a = Rotation(axis: Vec3(0, 1, 0), angle: 0.2)
        let b = Rotation(axis: Vec3(0, 1, 0), angle: 1.0)
        #expect(a.slerp(to: b, t: 0).angle(to: a) < 1e-12 && a.slerp(to: b, t: 1).angle(to: b) < 1e-9)
        #expect(a.slerp(to: b, t: 0.5).angle(to: Rotation(axis: Vec3(0, 1, 0), angle: 0.6)) < 1e-9)
    }
}

struct TransformTests {
    @Test func compositionIsAssociativeAndInverts() throws {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<500 {
            let (a, b, c) = (random(&generator), random(&generator), random(&generator))
            let point = randomVector(-10...10, using: &generator)
            let left = a.concatenating(b).concatenating(c).apply(point)
            let right = a.concatenating(b.concatenating(c)).apply(point)
            #expect((left - right).length < 1e-9)
            #expect((a.inverse.apply(a.apply(point)) - point).length < 1e-9)
            #expect((a.matrix.transformPoint(point) - a.apply(point)).length < 1e-9)
            let inverse = try #require(a.matrix.inverse)
            #expect((inverse.transformPoint(a.apply(point)) - point).length < 1e-8)
        }
    }

    private func random(_ generator: inout SeededGenerator) -> Similarity {
        Similarity(
            rotation: .random(using: &generator), translation: randomVector(-5...5, using: &generator),
            scale: .random(in: 0.5...2, using: &generator))
    }

    @Test func rayCastsHitPlanesAndBoxes() throws {
        let ray = Ray(origin: Vec3(0, 1, 0), direction: Vec3(0, -1, -1))
        let floor = try #require(Plane.horizontal(y: 0).intersection(with: ray))
        #expect((floor - Vec3(0, 0, -1)).length < 1e-12)
        #expect(Plane.horizontal(y: 2).intersection(with: ray) == nil)
        let box = Box(center: Vec3(0, 0, -1), extent: Vec3(1, 1, 1))
        #expect(abs(try #require(box.intersection(with: ray)) - 0.5.squareRoot()) < 1e-12)
        #expect(box.intersection(with: Ray(origin: Vec3(5, 5, 5), direction: Vec3(1, 0, 0))) == nil)
        #expect(box.contains(Vec3(0.5, 0.5, -0.5)) && !box.contains(Vec3(0, 0, 0.01)))
    }
}

struct CameraTests {
    private func cameras(_ generator: inout SeededGenerator) -> [Camera] {
        let pose = Similarity(
            rotation: .random(using: &generator), translation: randomVector(-3...3, using: &generator))
        return [
            Camera(pose: pose, lens: .verticalFieldOfView(degrees: 60), viewport: Viewport(width: 1170, height: 2532)),
            Camera(
                pose: pose, lens: .intrinsics(fx: 1500, fy: 1500, cx: 960, cy: 700),
                viewport: Viewport(width: 1920, height: 1440), near: 0.01, far: 50),
        ]
    }

    /// unproject ∘ project is the identity within 1e-5 m, for points in front of the camera.
    @Test func unprojectInvertsProject() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<300 {
            for camera in cameras(&generator) {
                let local = Vec3(
                    .random(in: -1...1, using: &generator), .random(in: -1...1, using: &generator),
                    -.random(in: 0.2...20, using: &generator))
                let world = camera.pose.apply(local)
                #expect((camera.unproject(camera.project(world)) - world).length < 1e-5)
                #expect((camera.unprojectNormalized(camera.projectNormalized(world)) - world).length < 1e-5)
            }
        }
    }

    @Test func theCentreOfTheViewLooksAlongFront() {
        let camera = Camera(
            pose: Similarity(translation: Vec3(0, 1.5, 0)), lens: .verticalFieldOfView(degrees: 60),
            viewport: Viewport(width: 1170, height: 2532))
        let window = camera.project(Vec3(0, 1.5, -2))
        #expect(abs(window.x - 585) < 1e-9 && abs(window.y - 1266) < 1e-9)
        let ray = camera.ray(throughNormalized: 0.5, 0.5)
        #expect((ray.direction - Vec3(0, 0, -1)).length < 1e-9 && ray.origin == Vec3(0, 1.5, 0))
        // The top edge of the view is 30° up.
        let top = camera.ray(throughNormalized: 0.5, 0).direction
        #expect(abs(atan2(top.y, -top.z) - .pi / 6) < 1e-9)
    }
}
