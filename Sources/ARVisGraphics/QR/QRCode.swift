public import ARVisSupport

/// A QR Code (ISO/IEC 18004, model 2) of some text: byte mode (UTF-8), versions 1–40, the four
/// error-correction levels, and the mask with the lowest penalty.
///
/// ```swift
/// let code = try QRCode(encoding: "https://arvis.example/s/museum/ensor.json")
/// let svg = code.svg()                      // or PNGWriter(...).write(code.drawing())
/// ```
public struct QRCode: Sendable, Hashable {
    /// How much of the symbol may be damaged and still read: about 7, 15, 25 or 30 % of its codewords.
    public enum ErrorCorrection: Int, Sendable, CaseIterable {
        /// About 7 % (L).
        case low
        /// About 15 % (M), the default.
        case medium
        /// About 25 % (Q).
        case quartile
        /// About 30 % (H).
        case high

        /// The level's two bits in the format information.
        var formatBits: Int { [1, 0, 3, 2][rawValue] }
    }

    /// The version, 1–40: the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    /// Modules per side.
    public let size: Int
    /// The error-correction level (raised above the one asked for when it fits in the same version).
    public let errorCorrection: ErrorCorrection
    /// The data mask applied, 0–7.
    public let mask: Int
    /// Dark modules, row by row.
    private let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark (outside the symbol: light).
    public subscript(x x: Int, y y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// Encodes `text` as UTF-8 bytes in the smallest version from `minimumVersion` that holds it.
    /// - Throws: ``GraphicsError`` `qrDataTooLong` past the 2 953 bytes version 40 holds at level L
    ///   (fewer at higher levels), and `invalidArgument` for a version outside 1–40.
    public init(encoding text: String, errorCorrection: ErrorCorrection = .medium, minimumVersion: Int = 1)
        throws(GraphicsError)
    {
        guard (1...40).contains(minimumVersion) else {
            throw GraphicsError(.invalidArgument, "a QR Code version is 1 to 40, not \(minimumVersion)")
        }
        let bytes = Array(text.utf8)
        guard
            let version = (minimumVersion...40).first(where: {
                Self.capacity(version: $0, errorCorrection: errorCorrection) >= bytes.count
            })
        else {
            throw GraphicsError(
                .qrDataTooLong,
                "\(bytes.count) bytes do not fit in a QR Code at level \(errorCorrection): the most is \(Self.capacity(version: 40, errorCorrection: errorCorrection))"
            )
        }
        // A higher level that still fits costs nothing.
        let level =
            ErrorCorrection.allCases.last {
                $0.rawValue >= errorCorrection.rawValue
                    && Self.capacity(version: version, errorCorrection: $0) >= bytes.count
            } ?? errorCorrection
        let codewords = QRBlocks(version: version, errorCorrection: level).interleaved(
            Self.dataCodewords(bytes, version: version, level: level))
        var matrix = QRMatrix(version: version)
        matrix.placeData(codewords)
        let penalties = (0..<8).map { matrix.masked($0, level: level).penalty }
        let chosen = penalties.indices.min { penalties[$0] < penalties[$1] } ?? 0
        self.version = version
        size = matrix.size
        self.errorCorrection = level
        mask = chosen
        modules = matrix.masked(chosen, level: level).dark
    }

    /// How many bytes of text a version holds at a level.
    public static func capacity(version: Int, errorCorrection: ErrorCorrection) -> Int {
        let bits =
            QRBlocks(version: version, errorCorrection: errorCorrection).dataCodewordCount * 8 - 4 - countBits(version)
        return max(0, bits / 8)
    }

    /// The width of the byte count in the segment header.
    private static func countBits(_ version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// The segment (byte mode), terminator and padding, as data codewords.
    private static func dataCodewords(_ bytes: [UInt8], version: Int, level: ErrorCorrection) -> [UInt8] {
        let capacity = QRBlocks(version: version, errorCorrection: level).dataCodewordCount
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version))
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            (start..<start + 8).reduce(UInt8(0)) { $0 << 1 | (bits[$1] ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }
}

extension QRCode.ErrorCorrection: CustomStringConvertible {
    /// The level's letter: L, M, Q or H.
    public var description: String { ["L", "M", "Q", "H"][rawValue] }
}
