// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (the fixtures' keys, decoded by name, are snake_case as the reference wrote them)
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisSpatial

struct OpenTokPosePacketTests {
    struct Vector: Decodable {
        let name: String
        let floats: [String: Double]
        let bytes_hex_le: String
        let simdWorldFront: [Double]
    }

    struct Fixture: Decodable { let vectors: [Vector] }

    static let fixture: Fixture? = {
        let url = Corpus.packageRoot.deletingLastPathComponent().appendingPathComponent(
            "shared/reference/fixtures/opentok-arframemetadata-vectors.synthetic.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Fixture.self, from: $0) }
    }()

    @Test(.enabled(if: fixture != nil, "../shared/reference/fixtures is absent"))
    func matchesTheFixtureVectors() throws {
        let fixture = try #require(Self.fixture)
        #expect(!fixture.vectors.isEmpty)
        for vector in fixture.vectors {
            let f = vector.floats.mapValues(Float.init)
            let packet = OpenTokPosePacket(
                position: SIMD3(f["pos_x"]!, f["pos_y"]!, f["pos_z"]!),
                euler: SIMD3(f["euler_x_pitch"]!, f["euler_y_yaw"]!, f["euler_z_roll"]!),
                zNear: f["zNear"]!, fieldOfView: f["fieldOfView_deg"]!)
            let hex = packet.encoded().map { String(format: "%02x", $0) }.joined()
            #expect(hex == vector.bytes_hex_le, "\(vector.name)")
            #expect(try OpenTokPosePacket(decoding: packet.encoded()) == packet)
            let front = packet.camera(viewport: Viewport(width: 390, height: 844)).pose.front
            let expected = Vec3(vector.simdWorldFront[0], vector.simdWorldFront[1], vector.simdWorldFront[2])
            #expect((front - expected).length < 1e-6, "\(vector.name): front \(front) ≠ \(expected)")
        }
    }

    @Test func refusesShortLongAndNonFinitePackets() {
        let good = OpenTokPosePacket(position: .zero, euler: .zero, zNear: 0.001, fieldOfView: 60).encoded()
        for bytes in [[], Array(good.prefix(31)), good + [0]] {
            #expect(throws: SpatialError.self) { try OpenTokPosePacket(decoding: bytes) }
        }
        var nan = good
        nan.replaceSubrange(0..<4, with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian, Array.init))
        #expect { try OpenTokPosePacket(decoding: nan) } throws: { ($0 as? SpatialError)?.code == .notFinite }
    }
}

struct PosePacketTests {
    private let packet = PosePacket(
        frameID: 42, timestamp: 1_732_233_600.125, position: SIMD3(0.25, 1.5, -0.75),
        orientation: Rotation(sceneKitEuler: Vec3(-0.3, 1.2, 0.1)),
        intrinsics: SIMD4(1500, 1500, 960, 720), viewport: SIMD2(1920, 1440))

    @Test func roundTripsIn62Bytes() throws {
        let bytes = packet.encoded()
        #expect(bytes.count == 62 && bytes.count <= 64)
        let decoded = try PosePacket(decoding: bytes)
        #expect(decoded.frameID == 42 && decoded.timestamp == packet.timestamp && decoded.position == packet.position)
        #expect(decoded.orientation.angle(to: packet.orientation) < 1e-6)
        #expect(decoded.intrinsics == packet.intrinsics && decoded.viewport == packet.viewport)
        // A quaternion with negative w is the same rotation.
        var flipped = packet
        flipped.orientation = Rotation(
            x: -packet.orientation.x, y: -packet.orientation.y, z: -packet.orientation.z, w: -packet.orientation.w)
        #expect(try PosePacket(decoding: flipped.encoded()).orientation.angle(to: packet.orientation) < 1e-6)
    }

    @Test func everyCorruptionIsCaught() {
        let bytes = packet.encoded()
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x10
            #expect(throws: SpatialError.self) { try PosePacket(decoding: damaged) }
        }
        #expect { try PosePacket(decoding: Array(bytes.prefix(61))) } throws: {
            ($0 as? SpatialError)?.code == .wrongLength
        }
        var version = bytes
        version[0] = 2
        #expect { try PosePacket(decoding: version) } throws: { ($0 as? SpatialError)?.code == .unsupportedVersion }
    }
}

struct AnnotationSignalTests {
    @Test func parsesTheLegacyFormStrictly() throws {
        let signal = try AnnotationSignal(legacy: "-2.0:0.0:8.742278e-08:187.5:402")
        #expect(signal.legacyPoint == Vec3(-2, 0, 8.742278e-08) && signal.tap == SIMD2(187.5, 402))
        for bad in [
            "", "1:2:3:4", "1:2:3:4:5:6", "1:2:3:4:x", "1:2:nan:4:5", "1:2:3:4:1e400", "1: 2:3:4:5", "1:2::4:5",
        ] {
            #expect(throws: SpatialError.self, "\(bad)") { try AnnotationSignal(legacy: bad) }
        }
    }

    @Test func jsonFormRoundTripsAndChecksTheTap() throws {
        let signal = AnnotationSignal(tap: SIMD2(0.5, 0.25), frame: 42)
        let data = try JSONEncoder().encode(signal)
        #expect(try JSONDecoder().decode(AnnotationSignal.self, from: data) == signal)
        for bad in [
            #"{"type": "annotate", "tap": [1.5, 0]}"#, #"{"type": "annotate", "tap": [0.5]}"#,
            #"{"type": "other", "tap": [0, 0]}"#,
        ] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(AnnotationSignal.self, from: Data(bad.utf8))
            }
        }
    }
}

struct RemoteAnnotationTests {
    private let frameCamera = Camera(
        pose: Similarity(rotation: Rotation(sceneKitEuler: Vec3(-0.2, 0.5, 0)), translation: Vec3(1, 1.4, 2)),
        lens: .intrinsics(fx: 1000, fy: 1000, cx: 640, cy: 360), viewport: Viewport(width: 1280, height: 720))

    @Test func fixedDepthStartsAtTheCameraNotTheOrigin() {
        let point = RemoteAnnotation.worldPoint(tap: SIMD2(0.5, 0.5), camera: frameCamera)
        #expect(((point - frameCamera.pose.translation).length - 2) < 1e-9)
        #expect((point - (frameCamera.pose.translation + 2 * frameCamera.pose.front)).length < 1e-9)
    }

    @Test func knownPlanesCatchTheRay() {
        let point = RemoteAnnotation.worldPoint(tap: SIMD2(0.5, 0.9), camera: frameCamera, planes: [.horizontal(y: 0)])
        #expect(abs(point.y) < 1e-9)
    }

    /// A tap on a 1170×2532 phone and the same place in the frame on a 750×1334 phone land on the same point.
    @Test func screensOfDifferentSizesAgree() throws {
        let frame = SIMD2(1280.0, 720.0)
        let relative = SIMD2(0.3, 0.6)
        var points: [Vec3] = []
        for view in [SIMD2(1170.0, 2532.0), SIMD2(750.0, 1334.0)] {
            // Where the frame point sits on this screen (aspect fit, letterboxed).
            let scale = min(view.x / frame.x, view.y / frame.y)
            let tapInView = (view - frame * scale) / 2 + relative * frame * scale
            let tap = try #require(
                RemoteAnnotation.normalizedTap(tapInView, viewSize: view, frameSize: frame, mode: .fit))
            points.append(RemoteAnnotation.worldPoint(tap: tap, camera: frameCamera))
        }
        #expect((points[0] - points[1]).length < 1e-9)
        #expect(
            RemoteAnnotation.normalizedTap(SIMD2(10, 10), viewSize: SIMD2(1170, 2532), frameSize: frame, mode: .fit)
                == nil)
    }
}

struct SessionTests {
    @Test func gateFollowsBubbleVision() {
        typealias G = SessionGate
        #expect(
            G.evaluate(tracking: .normal, mapping: .mapped) == .init(isReady: true, message: "Ready to blow bubbles!"))
        #expect(G.evaluate(tracking: .normal, mapping: .extending).isReady)
        #expect(G.evaluate(tracking: .normal, mapping: .limited).message == "Keep scanning environment...")
        #expect(G.evaluate(tracking: .normal, mapping: .notAvailable).message == "Mapping not available")
        #expect(G.evaluate(tracking: .limited(.excessiveMotion), mapping: .mapped).message == "Move slower")
        #expect(
            G.evaluate(tracking: .limited(.insufficientFeatures), mapping: .mapped).message == "Find a textured area")
        #expect(G.evaluate(tracking: .limited(.initializing), mapping: .mapped).message == "Initializing tracking...")
        #expect(G.evaluate(tracking: .limited(.relocalizing), mapping: .mapped).message == "Relocalizing...")
        #expect(G.evaluate(tracking: .limited(.unknown), mapping: .mapped).message == "Tracking limited")
        #expect(
            G.evaluate(tracking: .notAvailable, mapping: .mapped)
                == .init(isReady: false, message: "Tracking unavailable"))
        #expect(G.failed("camera denied").message == "Session failed: camera denied")
    }

    @Test func capacityRemovesTheOldestFirst() {
        let policy = CapacityPolicy()
        var generator = SeededGenerator(seed: 9)
        var items = (0..<100).map { Double($0) }.shuffled(using: &generator)
        let result = policy.inserting(1000, into: items, createdAt: { $0 })
        #expect(result.kept.count == 100 && result.removed == [0])
        items = result.kept
        #expect(!items.contains(0) && items.contains(1000))
        #expect(
            CapacityPolicy(maximum: 3).inserting(9, into: [5, 1, 7, 2], createdAt: { Double($0) }) == (
                kept: [5, 7, 9], removed: [1, 2]
            ))
    }
}

struct ChecksumTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        // The CRC-32/ISO-HDLC check value of "123456789" (as zlib computes it).
        let value = Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) }
        #expect(value == 0xCBF4_3926)
        let long = Array("The quick brown fox jumps over the lazy dog".utf8).withUnsafeBytes { CRC32.checksum($0) }
        #expect(long == 0x414F_A339)
    }
}
