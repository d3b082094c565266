import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisModel

struct CrateCompressionTests {
    @Test func literalOnlyBlocksRoundTrip() throws {
        for length in [0, 1, 14, 15, 16, 269, 270, 271, 5000] {
            let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
            #expect(try CrateCompression.decompress(CrateCompression.compress(input)[...], size: length) == input)
        }
    }

    @Test func matchesCopyOverlappingRuns() throws {
        // "abc" as literals, then a match of 9 at offset 3, then 2 literals: "abcabcabcabcxy".
        let block: [UInt8] = [0x35, 0x61, 0x62, 0x63, 0x03, 0x00, 0x20, 0x78, 0x79]
        var output: [UInt8] = []
        try CrateCompression.lz4Decode(block[...], into: &output, limit: 100)
        #expect(String(decoding: output, as: UTF8.self) == "abcabcabcabcxy")
    }

    /// Found by fuzzing (docs/fuzzing.md): a chunk count of 128 or more is negative as the signed
    /// byte it is, and counting up to it trapped.
    @Test func aNegativeChunkCountIsRefused() throws {
        #expect(throws: ModelError.self) { try CrateCompression.decompress([0x80, 0, 0, 0, 0][...], limit: 100) }
        let finding = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Findings/usdc-negative-chunk-count.usdc")
        let bytes = [UInt8](try Data(contentsOf: finding))
        #expect(throws: ModelError.self) { try CrateReader(bytes).layer() }
    }

    @Test func hostileBlocksAreRefused() {
        var output: [UInt8] = []
        // A match reaching before the start of the output.
        #expect(throws: ModelError.self) {
            try CrateCompression.lz4Decode([0x10, 0x61, 0x05, 0x00][...], into: &output, limit: 100)
        }
        // Literals running past the block.
        #expect(throws: ModelError.self) {
            try CrateCompression.lz4Decode([0xF0, 0xFF][...], into: &output, limit: 100)
        }
        // Output past the announced size.
        #expect(throws: ModelError.self) {
            try CrateCompression.decompress(CrateCompression.compress([1, 2, 3])[...], size: 2)
        }
    }

    @Test func integerCodingRoundTripsRandomValues() throws {
        var generator = SeededGenerator(seed: 11)
        for count in [1, 3, 4, 5, 16, 1000] {
            let values = (0..<count).map { _ in Int32.random(in: -70_000...70_000, using: &generator) }
            let decoded = try CrateCompression.decodeIntegers(
                CrateCompression.encodeIntegers(values), count: count, width: 4)
            #expect(decoded == values.map { Int64($0) })
        }
    }

    @Test func integerCodingMatchesTheReferenceExample() throws {
        // The start of the SPECS pathIndex block of usd-core's scene.usdc (reference/usd.md §4.3).
        let encoded: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x10]
        let decoded = try CrateCompression.decodeIntegers(
            encoded + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], count: 4, width: 4)
        #expect(decoded == [0, 1, 2, 3])
    }
}
