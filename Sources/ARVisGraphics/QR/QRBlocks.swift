/// A version's codeword layout at one error-correction level (ISO/IEC 18004 table 9): how the data
/// splits into Reed–Solomon blocks, and the interleaved sequence of data and error-correction codewords.
struct QRBlocks {
    let version: Int
    let errorCorrection: QRCode.ErrorCorrection

    /// Error-correction codewords per block, by level (L, M, Q, H) and version.
    private static let eccPerBlock: [[Int]] = [
        [
            0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28,
            28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]
    /// Reed–Solomon blocks, by level and version.
    private static let blockCounts: [[Int]] = [
        [
            0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17,
            18, 19, 19, 20, 21, 22, 24, 25,
        ],
        [
            0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29,
            31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
        ],
        [
            0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38,
            40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        [
            0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45,
            48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    var eccLength: Int { Self.eccPerBlock[errorCorrection.rawValue][version] }
    var blockCount: Int { Self.blockCounts[errorCorrection.rawValue][version] }
    /// Every codeword the symbol holds: the modules left by the function patterns, in whole bytes.
    var totalCodewords: Int { QRMatrix.dataModuleCount(version: version) / 8 }
    /// The data codewords, across all blocks.
    var dataCodewordCount: Int { totalCodewords - eccLength * blockCount }

    /// The data split into blocks (the shorter ones first, as the standard orders them), each followed
    /// by its error-correction codewords, then read out column by column.
    func interleaved(_ data: [UInt8]) -> [UInt8] {
        let shortLength = totalCodewords / blockCount - eccLength
        let longBlocks = totalCodewords % blockCount
        let generator = ReedSolomon.generator(degree: eccLength)
        var blocks: [(data: ArraySlice<UInt8>, ecc: [UInt8])] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength + (index >= blockCount - longBlocks ? 1 : 0)
            let slice = data[start..<start + length]
            blocks.append((slice, ReedSolomon.remainder(slice, generator: generator)))
            start += length
        }
        var result: [UInt8] = []
        result.reserveCapacity(totalCodewords)
        for column in 0...shortLength {
            for block in blocks where column < block.data.count {
                result.append(block.data[block.data.startIndex + column])
            }
        }
        for column in 0..<eccLength {
            for block in blocks { result.append(block.ecc[column]) }
        }
        return result
    }
}

/// Reed–Solomon error correction over GF(2⁸) with the QR field polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product = 0
        var x = Int(a)
        var y = Int(b)
        while y > 0 {
            if y & 1 == 1 { product ^= x }
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
            y >>= 1
        }
        return UInt8(product)
    }

    /// The generator polynomial ∏ (x − αⁱ), i < degree, highest coefficient (1) left out.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The error-correction codewords of `data`: its remainder modulo the generator.
    static func remainder(_ data: ArraySlice<UInt8>, generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(generator[index], factor) }
        }
        return result
    }
}
