import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ArgumentParser
import Foundation

/// Relocalization of 10 000 correspondences with 40 % outliers.
struct RelocalizationBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reloc",
        abstract:
            "Time robust rigid registration of 10 000 correspondences (1 cm noise, 40 % outliers) and report its accuracy."
    )

    @Option(help: "Timed repetitions.")
    var iterations = 50

    @Option(help: "Correspondences per problem.")
    var count = 10_000

    func run() throws {
        let problem = RelocalizationProblem(count: count, noise: 0.01, outlierRatio: 0.4, seed: 42)
        var result: Registration?
        let median = medians(
            iterations, [{ result = try? RigidRegistration.robust(problem.correspondences, inlierThreshold: 0.05) }])[0]
        guard let result else { throw ValidationError("registration failed") }
        let rotationError = result.transform.rotation.angle(to: problem.truth.rotation) * 180 / .pi
        let translationError = (result.transform.translation - problem.truth.translation).length
        print(
            String(
                format:
                    "%d correspondences, 40 %% outliers: median %.3f ms; %d inliers, RMS %.4f m; rotation error %.4f°, translation error %.2f mm",
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
        var generator = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { .random(in: range, using: &generator) }
        truth = Similarity(rotation: Rotation(axis: Vec3(0.2, 1, -0.1), angle: 0.9), translation: Vec3(1.2, -0.3, 2.5))
        var pairs: [Correspondence] = []
        for index in 0..<count {
            let saved = Vec3(uniform(-3...3), uniform(0...3), uniform(-3...3))
            if Double(index) < Double(count) * outlierRatio {
                pairs.append(
                    Correspondence(saved: saved, observed: Vec3(uniform(-4...4), uniform(-4...4), uniform(-4...4))))
            } else {
                let gaussian = { () -> Double in
                    (-2 * log(uniform(1e-12...1))).squareRoot() * cos(2 * .pi * uniform(0...1))
                }
                pairs.append(
                    Correspondence(
                        saved: saved, observed: truth.apply(saved) + Vec3(gaussian(), gaussian(), gaussian()) * noise))
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
        let openTok = OpenTokPosePacket(
            position: SIMD3(0.25, 1.5, -0.75), euler: SIMD3(0.1, 1.2, -0.05), zNear: 0.001, fieldOfView: 60)
        let arvis = PosePacket(
            frameID: 1, timestamp: 1000.5, position: SIMD3(0.25, 1.5, -0.75),
            orientation: Rotation(sceneKitEuler: Vec3(0.1, 1.2, -0.05)),
            intrinsics: SIMD4(1500, 1500, 960, 720), viewport: SIMD2(1920, 1440))
        var sink: Float = 0
        let times = medians(
            7,
            [
                {
                    // Into and out of one frame buffer, as a video pipeline does.
                    let buffer = UnsafeMutableRawBufferPointer.allocate(
                        byteCount: OpenTokPosePacket.byteCount, alignment: 8)
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
        let openTokRate = Double(count) / times[0]
        let arvisRate = Double(count) / times[1]
        print(
            String(
                format:
                    "OpenTok 32-byte packet: %.1f million encode+decode per second; ARVis 62-byte packet: %.1f million (checksum %.0f)",
                openTokRate / 1e6, arvisRate / 1e6, sink))
        print(String(format: "RESULT opentok_packet_rate %.2f Mops/s", openTokRate / 1e6))
        print(String(format: "RESULT arvis_packet_rate %.2f Mops/s", arvisRate / 1e6))
    }
}

/// Automatic placement of 12 widgets around one target.
struct PlacementBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "placement",
        abstract: "Time placing 12 auto widgets of mixed sizes around one image target.")

    @Option(help: "Timed repetitions.")
    var iterations = 2000

    func run() throws {
        var generator = SplitMix64(seed: 7)
        let widgets = (0..<12).map { _ -> WidgetConfiguration in
            var widget = WidgetConfiguration(component: .spacer(Component.Spacer()), relativeAnchorPoint: .auto)
            widget.size = Size(
                width: .random(in: 200...1400, using: &generator), height: .random(in: 150...1000, using: &generator))
            return widget
        }
        let target = PlanarTarget(size: SIMD2(0.42, 0.3))
        var placed: [PlacedWidget] = []
        let median = medians(
            iterations, [{ placed = WidgetPlacement.place(widgets, on: target, viewpoint: Vec3(0.5, 1.2, 2)) }])[0]
        print(
            String(format: "12 auto widgets around one target: median %.4f ms (%d placed)", median * 1000, placed.count)
        )
        print(String(format: "RESULT auto_placement_12_median %.4f ms", median * 1000))
    }
}

/// ARVis against Open3D's correspondence-based RANSAC on the same 10 000 correspondences.
struct RelocalizationVersusOpen3D: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reloc-vs-open3d",
        abstract: "Time and compare ARVis's and Open3D's robust rigid registration on the same data.",
        discussion: "Runs Benchmarks/open3d_reloc.py (pip install open3d) on a problem file this command writes.")

    @Option(help: "Timed repetitions of each side.")
    var iterations = 20

    @Option(help: "The Python interpreter that has open3d.")
    var python = "python3"

    func run() throws {
        let problem = RelocalizationProblem(count: 10_000, noise: 0.01, outlierRatio: 0.4, seed: 42)
        var result: Registration?
        let arvis = medians(
            iterations, [{ result = try? RigidRegistration.robust(problem.correspondences, inlierThreshold: 0.05) }])[0]
        guard let result else { throw ValidationError("ARVis registration failed") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arvis-reloc-\(ProcessInfo.processInfo.processIdentifier).json")
        defer { try? FileManager.default.removeItem(at: file) }
        struct Problem: Encodable {
            var saved, observed, rotation: [[Double]]
            var threshold: Double
            var translation: [Double]
        }
        let json = Problem(
            saved: problem.correspondences.map { [$0.saved.x, $0.saved.y, $0.saved.z] },
            observed: problem.correspondences.map { [$0.observed.x, $0.observed.y, $0.observed.z] },
            rotation: problem.truth.rotation.matrix, threshold: 0.05,
            translation: [problem.truth.translation.x, problem.truth.translation.y, problem.truth.translation.z])
        try JSONEncoder().encode(json).write(to: file)
        let side = try PythonSide(
            python: python, script: "Benchmarks/open3d_reloc.py",
            arguments: ["--iterations", String(iterations), file.path],
            install: "pip install open3d")
        let output = side.output
        let (open3d, open3dRotation, open3dTranslation) = try (
            side.figure("open3d_reloc_median"), side.figure("open3d_rotation_error"),
            side.figure("open3d_translation_error")
        )
        let rotation = result.transform.rotation.angle(to: problem.truth.rotation) * 180 / .pi
        let translation = (result.transform.translation - problem.truth.translation).length * 1000
        print(output.split(separator: "\n").first.map(String.init) ?? "")
        print(
            String(
                format: "ARVis: median %.3f ms, rotation error %.5f°, translation error %.3f mm", arvis * 1000,
                rotation, translation))
        print(String(format: "RESULT arvis_reloc_median %.3f ms", arvis * 1000))
        print(String(format: "RESULT open3d_reloc_median %.3f ms", open3d))
        print(String(format: "RESULT arvis_rotation_error %.5f deg", rotation))
        print(String(format: "RESULT open3d_rotation_error %.5f deg", open3dRotation))
        print(String(format: "RESULT arvis_translation_error %.3f mm", translation))
        print(String(format: "RESULT open3d_translation_error %.3f mm", open3dTranslation))
        print(String(format: "RESULT arvis_vs_open3d_speedup %.1f x", open3d / (arvis * 1000)))
    }
}
