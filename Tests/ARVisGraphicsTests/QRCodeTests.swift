import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisGraphics

struct QRCodeTests {
    /// The standard's worked example (1-M "HELLO WORLD"): its 16 data codewords give these 10 error-correction codewords.
    @Test func reedSolomonMatchesTheWorkedExample() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        let ecc = ReedSolomon.remainder(data[...], generator: ReedSolomon.generator(degree: 10))
        #expect(ecc == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    /// Every version's codeword count matches the standard's table 9 (a few spot values), and every
    /// version and level splits its codewords into whole blocks.
    @Test func capacitiesMatchTheStandard() {
        #expect(QRBlocks(version: 1, errorCorrection: .low).totalCodewords == 26)
        #expect(QRBlocks(version: 7, errorCorrection: .medium).totalCodewords == 196)
        #expect(QRBlocks(version: 40, errorCorrection: .low).totalCodewords == 3706)
        #expect(QRCode.capacity(version: 1, errorCorrection: .medium) == 14)
        #expect(QRCode.capacity(version: 40, errorCorrection: .low) == 2953)
        #expect(QRCode.capacity(version: 40, errorCorrection: .high) == 1273)
        for version in 1...40 {
            for level in QRCode.ErrorCorrection.allCases {
                let blocks = QRBlocks(version: version, errorCorrection: level)
                #expect(blocks.dataCodewordCount > 0 && blocks.totalCodewords / blocks.blockCount > blocks.eccLength)
            }
        }
    }

    @Test func finderPatternsAndQuietZone() throws {
        let code = try QRCode(encoding: "https://example.org")
        #expect(code.size == 17 + 4 * code.version)
        for (x, y) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(
                code[x: x, y: y] && code[x: x + 6, y: y + 6] && !code[x: x + 1, y: y + 1] && code[x: x + 3, y: y + 3])
        }
        #expect(!code[x: -1, y: 0] && !code[x: code.size, y: 0])
        #expect(code.svg().hasPrefix("<svg"))
    }

    @Test func picksTheSmallestVersionAndRaisesTheLevelForFree() throws {
        let code = try QRCode(encoding: "ab")
        #expect(code.version == 1 && code.errorCorrection == .high)
        #expect(try QRCode(encoding: String(repeating: "x", count: 15)).version == 2)
        #expect(try QRCode(encoding: "ab", minimumVersion: 9).version == 9)
    }

    @Test func refusesTextTooLongAndBadVersions() {
        #expect { try QRCode(encoding: String(repeating: "x", count: 2954), errorCorrection: .low) } throws: {
            ($0 as? GraphicsError)?.code == .qrDataTooLong
        }
        #expect { try QRCode(encoding: "a", minimumVersion: 41) } throws: {
            ($0 as? GraphicsError)?.code == .invalidArgument
        }
    }

    /// A real reader (zbarimg, Debian's zbar-tools) decodes every version 1–40 at every level, each
    /// filled to capacity with UTF-8 text, from the PNG this module writes.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg"),
            "skipped: zbarimg is not installed (apt-get install zbar-tools)"))
    func zbarReadsEveryVersionAndLevel() async throws {
        let scratch = ScratchFolder("qr")
        let folder = try scratch.folder()
        // Seconds of encoding, drawing and waiting on zbarimg: off the pool (see `offThePool`).
        let (versions, reads) = try await offThePool("qr codes") { try Self.readEveryVersionAndLevel(in: folder) }
        #expect(versions.count == 40 * QRCode.ErrorCorrection.allCases.count)
        #expect(!versions.contains(false), "a code came out in another version")
        for read in reads {
            #expect(read.status == 0, "zbarimg failed on \(read.first)…")
            // With -Sbinary every symbol's bytes follow each other; compare the concatenation.
            #expect(read.decoded.replacingOccurrences(of: "\n", with: "") == read.expected, "\(read.first)…")
        }
    }

    /// What zbarimg made of one run over up to 40 pictures.
    struct ZbarRead: Sendable {
        var first: String
        var status: Int32
        var decoded: String
        var expected: String
    }

    /// Writes a PNG of a code for every version and level, filled to capacity, and reads them back
    /// with zbarimg in runs of 40; returns whether each code had its version, and what each run read.
    static func readEveryVersionAndLevel(in folder: URL) throws -> ([Bool], [ZbarRead]) {
        let fonts = try FontLibrary.standard()
        var expected: [String: String] = [:]
        var paths: [String] = []
        var versions: [Bool] = []
        var generator = SeededGenerator(seed: 3)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%é€")
        for version in 1...40 {
            for level in QRCode.ErrorCorrection.allCases {
                var text = ""
                while text.utf8.count < QRCode.capacity(version: version, errorCorrection: level) - 3 {
                    text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
                }
                let code = try QRCode(encoding: text, errorCorrection: level, minimumVersion: version)
                versions.append(code.version == version)
                let path = folder.appendingPathComponent("v\(version)-\(level).png").path
                try Data(PNGWriter(fonts: fonts, scale: 1).write(code.drawing(moduleSize: 3))).write(
                    to: URL(fileURLWithPath: path))
                expected[path] = text
                paths.append(path)
            }
        }
        return (
            versions,
            try stride(from: 0, to: paths.count, by: 40).map { start in
                let chunk = Array(paths[start..<min(start + 40, paths.count)])
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
                process.arguments = ["--quiet", "--raw", "-Sbinary", "-Sqrcode.enable"] + chunk
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return ZbarRead(
                    first: chunk.first ?? "", status: process.terminationStatus,
                    decoded: String(decoding: output, as: UTF8.self),
                    expected: chunk.map { expected[$0] ?? "" }.joined())
            }
        )
    }
}
