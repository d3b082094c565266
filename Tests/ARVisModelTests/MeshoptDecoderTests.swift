import Foundation
import Testing

@testable import ARVisModel

/// `EXT_meshopt_compression`'s decoders, held to streams the meshoptimizer library encoded
/// (``MeshoptVectors``), to the specification's worked example, and to damaged streams.
struct MeshoptDecoderTests {
    /// The attribute vectors' input: element i, byte j (the formula of Scripts/make_meshopt_vectors.py).
    static func attributeBytes(count: Int, stride: Int) -> [UInt8] {
        (0..<count).flatMap { i in
            (0..<stride).map { j in UInt8(truncatingIfNeeded: i * (j + 1) + (i % 5 == 0 ? i * 31 : 0) + j * 7) }
        }
    }

    /// The triangles of a width × height grid of cells, row by row.
    static func grid(_ width: Int, _ height: Int) -> [UInt32] {
        var out: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt32(y * (width + 1) + x)
                let (b, c, d) = (a + 1, a + UInt32(width) + 1, a + UInt32(width) + 2)
                out += [a, b, c, b, d, c]
            }
        }
        return out
    }

    /// The index sequence vector's input.
    static let sequence: [UInt32] = {
        var values: [UInt32] = []
        for i in 0..<500 {
            let value: Int = i / 2 * 3 + i % 2 * 1000
            values.append(UInt32(value))
        }
        return values + [5, 70000, 3, 2]
    }()

    /// The bytes of a vector's base64 (its line breaks ignored).
    static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data())
    }

    private static func indices(_ bytes: [UInt8], stride: Int) -> [UInt32] {
        stride == 2
            ? (0..<bytes.count / 2).map { UInt32(bytes[2 * $0]) | UInt32(bytes[2 * $0 + 1]) << 8 }
            : (0..<bytes.count / 4).map { k in (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[4 * k + $1]) << (8 * $1) }
            }
    }

    /// Each triangle turned to start at its smallest index: the encoder may rotate a triangle.
    private static func canonical(_ indices: [UInt32]) -> [[UInt32]] {
        stride(from: 0, to: indices.count, by: 3).map { k in
            let t = Array(indices[k..<k + 3])
            let first = t.firstIndex(of: t.min()!)!
            return (0..<3).map { t[(first + $0) % 3] }
        }
    }

    @Test func attributeStreamsDecodeToWhatTheLibraryEncoded() throws {
        for vector in MeshoptVectors.attributes {
            let decoded = try MeshoptDecoder.decode(
                Self.bytes(vector.stream), count: vector.count, stride: vector.stride, mode: .attributes, filter: .none)
            #expect(
                decoded == Self.attributeBytes(count: vector.count, stride: vector.stride),
                "\(vector.count)×\(vector.stride)")
        }
    }

    /// Appendix A's example: a 4-bit group whose 4th and 5th deltas escape to bytes.
    @Test func theSpecificationsSentinelExample() throws {
        let group: [UInt8] = [0x17, 0x5F, 0xF0, 0xBC, 0x77, 0xA9, 0x21, 0x00, 0x34, 0xB5]
        let stream: [UInt8] = [0xA0, 0b10] + group + [0, 0, 0] + [UInt8](repeating: 0, count: 32)
        let decoded = try MeshoptDecoder.decode(stream, count: 16, stride: 4, mode: .attributes, filter: .none)
        let deltas = [-1, -4, -3, 26, -91, 0, -6, 6, -4, -4, 5, -5, 1, -1, 0, 0]
        var value = 0
        for (element, delta) in deltas.enumerated() {
            value += delta
            #expect(decoded[element * 4] == UInt8(truncatingIfNeeded: value))
            #expect(decoded[element * 4 + 1...element * 4 + 3] == [0, 0, 0])
        }
    }

    @Test func triangleStreamsDecodeToTheLibrarysTriangles() throws {
        let scattered = Self.indices(Self.bytes(MeshoptVectors.scattered), stride: 4)
        let inputs = ["grid 8x6": Self.grid(8, 6), "grid 40x30": Self.grid(40, 30), "scattered 200": scattered]
        for vector in MeshoptVectors.triangles {
            let input = try #require(inputs[vector.input])
            let decoded = try MeshoptDecoder.decode(
                Self.bytes(vector.stream), count: input.count, stride: vector.stride, mode: .triangles, filter: .none)
            #expect(
                Self.canonical(Self.indices(decoded, stride: vector.stride)) == Self.canonical(input),
                "version \(vector.version), \(vector.input), \(vector.stride) bytes")
        }
    }

    @Test func indexSequencesDecodeExactly() throws {
        for vector in MeshoptVectors.sequences {
            let decoded = try MeshoptDecoder.decode(
                Self.bytes(vector.stream), count: Self.sequence.count, stride: vector.stride, mode: .indices,
                filter: .none)
            #expect(Self.indices(decoded, stride: vector.stride) == Self.sequence)
        }
    }

    /// Each filter against the library's own decoding of the same input: one unit in the last place
    /// at most, as Appendix B allows.
    @Test func filtersMatchTheLibrary() throws {
        for vector in MeshoptVectors.filters {
            var bytes = Self.bytes(vector.input)
            let expected = Self.bytes(vector.output)
            let filter = try #require(MeshoptDecoder.Filter(rawValue: vector.filter))
            try MeshoptDecoder.apply(filter, to: &bytes, count: bytes.count / vector.stride, stride: vector.stride)
            switch (filter, vector.stride) {
            case (.exponential, _): #expect(bytes == expected)
            case (.octahedral, 4):
                let difference = zip(bytes, expected).map { abs(Int(Int8(bitPattern: $0)) - Int(Int8(bitPattern: $1))) }
                #expect(difference.max()! <= 1, "\(vector.filter) \(vector.stride)")
            default:
                let ours = stride(from: 0, to: bytes.count, by: 2).map {
                    Int(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8))
                }
                let theirs = stride(from: 0, to: expected.count, by: 2).map {
                    Int(Int16(bitPattern: UInt16(expected[$0]) | UInt16(expected[$0 + 1]) << 8))
                }
                #expect(zip(ours, theirs).map { abs($0 - $1) }.max()! <= 1, "\(vector.filter) \(vector.stride)")
            }
        }
    }

    /// Every stream cut short, or with a byte changed, is refused or decodes to exactly count × stride
    /// bytes: never a trap or a read past its end (the AddressSanitizer suite runs this too). The
    /// format has no length or checksum, so a cut that leaves a well-formed shorter stream decodes, as
    /// in the library; an attribute stream's tail makes that rare, and most cuts of the others are refused.
    @Test func damagedStreamsAreRefusedOrHarmless() throws {
        var streams: [(stream: [UInt8], count: Int, stride: Int, mode: MeshoptDecoder.Mode)] = []
        for vector in MeshoptVectors.attributes {
            streams.append((Self.bytes(vector.stream), vector.count, vector.stride, .attributes))
        }
        for vector in MeshoptVectors.triangles where vector.input == "grid 8x6" || vector.input == "scattered 200" {
            streams.append(
                (Self.bytes(vector.stream), vector.input == "grid 8x6" ? 288 : 600, vector.stride, .triangles))
        }
        for vector in MeshoptVectors.sequences {
            streams.append((Self.bytes(vector.stream), Self.sequence.count, vector.stride, .indices))
        }
        var generator = SystemRandomNumberGenerator()
        for (stream, count, stride, mode) in streams {
            let step = max(1, stream.count / 64)
            let cuts = Set(
                Array(Swift.stride(from: 0, to: stream.count, by: step)) + (max(0, stream.count - 40)..<stream.count))
            var refused = 0
            for length in cuts {
                do {
                    let decoded = try MeshoptDecoder.decode(
                        Array(stream.prefix(length)), count: count, stride: stride, mode: mode, filter: .none)
                    #expect(decoded.count == count * stride)
                } catch { refused += 1 }
            }
            #expect(
                refused * 10 >= cuts.count * (mode == .attributes ? 10 : 8),
                "\(mode): \(refused) of \(cuts.count) cuts refused")
            for _ in 0..<200 {
                var damaged = stream
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
                if let decoded = try? MeshoptDecoder.decode(
                    damaged, count: count, stride: stride, mode: mode, filter: .none)
                {
                    #expect(decoded.count == count * stride)
                }
            }
        }
    }

    @Test(arguments: [
        (12, 6, MeshoptDecoder.Mode.attributes, MeshoptDecoder.Filter.none, "multiple of 4"),
        (12, 260, .attributes, .none, "at most 256"),
        (10, 4, .triangles, .none, "divisible by 3"),
        (9, 8, .triangles, .none, "2 or 4"),
        (9, 4, .indices, .octahedral, "no filter"),
        (9, 12, .attributes, .octahedral, "4 or 8"),
        (9, 4, .attributes, .quaternion, "8"),
        (-1, 4, .attributes, .none, "negative"),
    ])
    func parametersOutsideTheExtensionsRulesAreRefused(
        count: Int, stride: Int, mode: MeshoptDecoder.Mode, filter: MeshoptDecoder.Filter, expected: String
    ) {
        let failure = #expect(throws: MeshoptDecoder.Failure.self) {
            try MeshoptDecoder.decode([0xA0], count: count, stride: stride, mode: mode, filter: filter)
        }
        #expect(failure?.message.contains(expected) == true, "\(String(describing: failure))")
    }

    /// A short stream claiming a huge view is refused before the view is allocated.
    @Test func aShortStreamClaimingMillionsOfElementsIsRefusedFirst() {
        let failure = #expect(throws: MeshoptDecoder.Failure.self) {
            try MeshoptDecoder.decode(
                [0xA0] + [UInt8](repeating: 0, count: 100), count: 200_000_000, stride: 4, mode: .attributes,
                filter: .none)
        }
        #expect(failure?.message.contains("take at least") == true)
        #expect(MeshoptDecoder.minimumSize(count: 200_000_000, stride: 4, mode: .attributes) > 12_000_000)
    }

    @Test func otherHeadersAndVersionsAreRefused() {
        for (stream, mode, expected) in [
            ([UInt8](repeating: 0, count: 64), MeshoptDecoder.Mode.attributes, "does not start with 0xa0"),
            ([0xA1] + [UInt8](repeating: 0, count: 63), .attributes, "version 1"),
            ([0xE2] + [UInt8](repeating: 0, count: 63), .triangles, "version 2"),
            ([0xD1] + [UInt8](repeating: 0, count: 63), .triangles, "0xe1"),
        ] {
            let failure = #expect(throws: MeshoptDecoder.Failure.self) {
                try MeshoptDecoder.decode(stream, count: 3, stride: 4, mode: mode, filter: .none)
            }
            #expect(failure?.message.contains(expected) == true, "\(String(describing: failure))")
        }
    }
}
