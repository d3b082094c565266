import ARVisSpatial
import ArgumentParser
import Foundation

/// Relocalization of 10 000 correspondences with 40 % outliers.
struct RelocalizationBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reloc",
        abstract: "Time robust rigid registration of 10 000 correspondences (1 cm noise, 40 % outliers) and report its accuracy.")

    @Option(help: "Timed repetitions.")
    var iterations = 50

    @Option(help: "Correspondences per problem.")
    var count = 10_000

    func run() throws {
        let problem = RelocalizationProblem(count: count, noise: 0.01, outlierRatio: 0.4, seed: 42)
        var result: Registration?
        let median = medians(iterations, [{ result = try? RigidRegistration.robust(problem.correspondences, inlierThreshold: 0.05) }])[0]
        guard let result else { throw ValidationError("registration failed") }
        let rotationError = result.transform.rotation.angle(to: problem.truth.rotation) * 180 / .pi
        let translationError = (result.transform.translation - problem.truth.translation).length
        print(String(format: "%d correspondences, 40 %% outliers: median %.3f ms; %d inliers, RMS %.4f m; rotation error %.4f°, translation error %.2f mm",
                     count, median * 1000, result.inliers.count, result.rmsResidual, rotationError, translationError * 1000))
        print(String(format: "RESULT reloc_median %.3f ms", median * 1000))
        print(String(format: "RESULT reloc_rotation_error %.5f deg", rotationError))
        print(String(format: "RESULT reloc_translation_error %.3f mm", translationError * 1000))
    }
}

/// A seeded relocalization problem: points in a 6 × 3 × 6 m room seen again after a rigid motion.
struct RelocalizationProblem {
    let truth: Similarity
    let correspondences: [Correspondence]

    init(count: Int, noise: Double, outlierRatio: Double, seed: UInt64) {
        var generator = BenchGenerator(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { .random(in: range, using: &generator) }
        truth = Similarity(rotation: Rotation(axis: Vec3(0.2, 1, -0.1), angle: 0.9), translation: Vec3(1.2, -0.3, 2.5))
        var pairs: [Correspondence] = []
        for index in 0..<count {
            let saved = Vec3(uniform(-3...3), uniform(0...3), uniform(-3...3))
            if Double(index) < Double(count) * outlierRatio {
                pairs.append(Correspondence(saved: saved, observed: Vec3(uniform(-4...4), uniform(-4...4), uniform(-4...4))))
            } else {
                let gaussian = { () -> Double in
                    (-2 * log(uniform(1e-12...1))).squareRoot() * cos(2 * .pi * uniform(0...1))
                }
                pairs.append(Correspondence(saved: saved, observed: truth.apply(saved) + Vec3(gaussian(), gaussian(), gaussian()) * noise))
            }
        }
        correspondences = pairs.shuffled(using: &generator)
    }
}

/// Pose packet encode + decode throughput.
struct PacketBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "packets",
        abstract: "Time encoding and decoding the OpenTok 32-byte pose packet and the ARVis 62-byte packet.")

    @Option(help: "Packets per timed run.")
    var count = 2_000_000

    func run() throws {
        let openTok = OpenTokPosePacket(position: SIMD3(0.25, 1.5, -0.75), euler: SIMD3(0.1, 1.2, -0.05), zNear: 0.001, fieldOfView: 60)
        let arvis = PosePacket(frameID: 1, timestamp: 1000.5, position: SIMD3(0.25, 1.5, -0.75), orientation: Rotation(sceneKitEuler: Vec3(0.1, 1.2, -0.05)),
                               intrinsics: SIMD4(1500, 1500, 960, 720), viewport: SIMD2(1920, 1440))
        var sink: Float = 0
        let times = medians(7, [
            {
                // Into and out of one frame buffer, as a video pipeline does.
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: OpenTokPosePacket.byteCount, alignment: 8)
                defer { buffer.deallocate() }
                for index in 0..<count {
                    var packet = openTok
                    packet.zNear = Float(index & 7)
                    packet.encode(into: buffer)
                    sink += (try? OpenTokPosePacket(decoding: UnsafeRawBufferPointer(buffer)))?.zNear ?? 0
                }
            },
            {
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: PosePacket.byteCount, alignment: 8)
                defer { buffer.deallocate() }
                for index in 0..<count {
                    var packet = arvis
                    packet.frameID = UInt32(truncatingIfNeeded: index)
                    packet.encode(into: buffer)
                    sink += (try? PosePacket(decoding: UnsafeRawBufferPointer(buffer)))?.position.x ?? 0
                }
            },
        ])
        let openTokRate = Double(count) / times[0], arvisRate = Double(count) / times[1]
        print(String(format: "OpenTok 32-byte packet: %.1f million encode+decode per second; ARVis 62-byte packet: %.1f million (checksum %.0f)",
                     openTokRate / 1e6, arvisRate / 1e6, sink))
        print(String(format: "RESULT opentok_packet_rate %.2f Mops/s", openTokRate / 1e6))
        print(String(format: "RESULT arvis_packet_rate %.2f Mops/s", arvisRate / 1e6))
    }
}

/// SplitMix64 for the benchmark's seeded data.
struct BenchGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
