import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

struct RegistrationTests {
    /// Correspondences in a 6 × 3 × 6 m room, `outliers` of them matched to random wrong points.
    private func scene(count: Int, noise: Double, outliers: Double, truth: Similarity, seed: UInt64) -> [Correspondence]
    {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let saved = Vec3(
                .random(in: -3...3, using: &generator), .random(in: 0...3, using: &generator),
                .random(in: -3...3, using: &generator))
            if Double(index) < Double(count) * outliers {
                return Correspondence(saved: saved, observed: randomVector(-4...4, using: &generator))
            }
            let noiseVector = Vec3(gaussian(&generator), gaussian(&generator), gaussian(&generator)) * noise
            return Correspondence(saved: saved, observed: truth.apply(saved) + noiseVector)
        }.shuffled(using: &generator)
    }

    private func gaussian(_ generator: inout SeededGenerator) -> Double {
        let u = Double.random(in: Double.ulpOfOne...1, using: &generator)
        let v = Double.random(in: 0...1, using: &generator)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    @Test func exactOnNoiseFreeData() throws {
        var generator = SeededGenerator(seed: 11)
        for trial in 0..<20 {
            let truth = Similarity(
                rotation: .random(using: &generator), translation: randomVector(-5...5, using: &generator))
            let pairs = scene(count: 50, noise: 0, outliers: 0, truth: truth, seed: UInt64(trial))
            let estimate = try RigidRegistration.leastSquares(pairs)
            for pair in pairs { #expect((estimate.apply(pair.saved) - pair.observed).length < 1e-6) }
            let robust = try RigidRegistration.robust(pairs, seed: UInt64(trial))
            #expect(robust.inliers.count == 50 && robust.rmsResidual < 1e-6)
        }
    }

    /// 1 cm noise and 40 % outliers in 1 000 correspondences: rotation within 0.1° and translation
    /// within 5 mm in at least 99 of 100 seeded trials.
    @Test func robustToNoiseAndOutliers() async throws {
        // Seconds of registrations: off the pool (see `offThePool`).
        let trials = try await offThePool("registrations") {
            var generator = SeededGenerator(seed: 12)
            return try (0..<100).map { trial in
                let truth = Similarity(
                    rotation: .random(using: &generator), translation: randomVector(-5...5, using: &generator))
                let pairs = scene(count: 1000, noise: 0.01, outliers: 0.4, truth: truth, seed: UInt64(1000 + trial))
                let result = try RigidRegistration.robust(pairs, inlierThreshold: 0.05, seed: UInt64(trial))
                let rotationError = result.transform.rotation.angle(to: truth.rotation) * 180 / .pi
                let translationError = (result.transform.translation - truth.translation).length
                return (
                    good: rotationError <= 0.1 && translationError <= 0.005, confidence: result.confidence,
                    inliers: result.inliers.count
                )
            }
        }
        for trial in trials {
            #expect(trial.confidence > 0.99)
            #expect(abs(Double(trial.inliers) - 600) < 40)
        }
        #expect(trials.filter(\.good).count >= 99)
    }

    @Test func remapsSavedAnchors() throws {
        let truth = Similarity(rotation: Rotation(axis: Vec3(0, 1, 0), angle: 0.7), translation: Vec3(1, 0, -2))
        let pairs = scene(count: 30, noise: 0, outliers: 0, truth: truth, seed: 5)
        let registration = try RigidRegistration.robust(pairs)
        let anchor = Similarity(rotation: Rotation(axis: Vec3(1, 0, 0), angle: 0.2), translation: Vec3(0.5, 1.2, -0.8))
        let remapped = registration.remap(anchor)
        let expected = truth.concatenating(anchor)
        #expect(
            (remapped.translation - expected.translation).length < 1e-6
                && remapped.rotation.angle(to: expected.rotation) < 1e-6)
    }

    @Test func degenerateInputIsAClearError() {
        let line = (0..<10).map { Correspondence(saved: Vec3(Double($0), 0, 0), observed: Vec3(Double($0), 1, 0)) }
        #expect { try RigidRegistration.leastSquares(line) } throws: {
            ($0 as? SpatialError)?.code == .insufficientData
        }
        #expect(throws: SpatialError.self) { try RigidRegistration.robust(Array(line.prefix(2))) }
        #expect(throws: SpatialError.self) { try RigidRegistration.robust(line) }
    }
}
