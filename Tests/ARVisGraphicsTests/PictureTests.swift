import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

@testable import ARVisGraphics

/// The PNG and JPEG decoders against the pictures of `Pictures/`, made by
/// `Scripts/make_picture_fixtures.py`, whose expected pixels are Pillow's (and, for 16-bit grey,
/// the high byte of each sample).
struct PictureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Pictures")

    static func names(_ suffix: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(suffix) && !$0.contains(".expected.") }.sorted()
    }

    private func load(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
    }

    /// Decodes `name` and its expected picture; returns the absolute differences of every channel.
    private func differences(_ name: String) throws -> [Int] {
        let decoded = try RasterImage(decoding: try load(name))
        let expectedName = (name as NSString).deletingPathExtension + ".expected.png"
        let expected = try RasterImage(decoding: try load(expectedName))
        try #require(
            decoded.width == expected.width && decoded.height == expected.height,
            "\(name) is \(decoded.width)×\(decoded.height)")
        return zip(decoded.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
    }

    @Test func fixturesArePresent() {
        #expect(Self.names(".png").count >= 25)
        #expect(Self.names(".jpg").count >= 11)
    }

    /// Every colour type, bit depth, palette transparency and Adam7 interlacing decodes exactly.
    @Test(arguments: names(".png"))
    func pngDecodesExactly(name: String) throws {
        let differences = try differences(name)
        #expect(differences.max() == 0, "\(name): largest difference \(differences.max() ?? -1)")
    }

    /// Baseline, progressive, subsampled, restart-interval, greyscale, CMYK and rotated JPEGs match
    /// libjpeg's decoding (through Pillow, with its "fancy" chroma upsampling) up to rounding; so do
    /// files whose data ends early, in the scan or in a restart interval (through djpeg): grey from
    /// where the data ends to the next restart marker.
    @Test(arguments: names(".jpg"))
    func jpegMatchesLibjpeg(name: String) throws {
        let differences = try differences(name)
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 0.25, "\(name): mean difference \(mean)")
        #expect(differences.max() ?? 0 <= 3, "\(name): largest difference \(differences.max() ?? -1)")
    }

    /// A block whose AC coefficients are all 0 is filled with one sample without the transform; that
    /// sample is the transform's own, to the bit, for every seventh DC over a 16-bit coefficient's
    /// range. Any nonzero AC coefficient takes the whole transform.
    @Test func aFlatBlockIsTheTransformsOwnSample() {
        for dc in stride(from: -32_768, through: 32_767, by: 7) {
            var block = [Float](repeating: 0, count: 64)
            block[0] = Float(dc)
            let flat = InverseDCT.flatSample(of: block)
            InverseDCT.transform(&block)
            #expect(block.allSatisfy { $0.bitPattern == flat?.bitPattern }, "DC \(dc)")
        }
        for k in 1..<64 {
            var block = [Float](repeating: 0, count: 64)
            block[0] = 100
            block[k] = -1
            #expect(InverseDCT.flatSample(of: block) == nil, "AC \(k)")
        }
    }

    /// Found by fuzzing (docs/fuzzing.md): a TEM marker, which has no length, before the frame. The
    /// decoder skipped it; the header reader took it for a segment, jumped over the frame, and told
    /// another size than the picture's.
    @Test func theHeaderIsWalkedAsTheDecoderWalksIt() throws {
        let bytes = try load("Findings/jpeg-tem-before-frame.jpg")
        let image = try RasterImage(decoding: bytes)
        let size = try #require(RasterImage.displaySize(of: bytes))
        #expect(size.width == image.width && size.height == image.height)
    }

    /// Found by fuzzing: an Exif segment after the frame header turned the decoded picture, but the
    /// header reader stopped at the frame and told the unturned size, so a layout placed it wrong.
    /// Both now take the first Exif orientation before the first scan, as Chromium and Pillow do;
    /// one after the scan turns nothing.
    @Test func exifAfterTheFrameHeaderTurnsThePictureAndItsSize() throws {
        let bytes = try load("jpeg-orientation6.jpg")
        let upright = try RasterImage(decoding: bytes)
        let afterFrame = try Self.movingExif(bytes, afterScan: false)
        #expect(try RasterImage(decoding: afterFrame) == upright)
        #expect(RasterImage.displaySize(of: afterFrame).map { [$0.width, $0.height] } == [37, 23])
        let afterScan = try Self.movingExif(bytes, afterScan: true)
        let unturned = try RasterImage(decoding: afterScan)
        #expect(unturned.width == 23 && unturned.height == 37)
        #expect(RasterImage.displaySize(of: afterScan).map { [$0.width, $0.height] } == [23, 37])
    }

    /// Found by fuzzing: an orientation tag of 11 777 values (not one SHORT) was read as its first.
    /// Chromium reads only a tag of one SHORT, and Pillow skips this one: the picture stays as stored.
    @Test func anOrientationOfManyValuesTurnsNothing() throws {
        let bytes = try load("Findings/jpeg-exif-orientation-of-many-values.jpg")
        let image = try RasterImage(decoding: bytes)
        #expect(image.width == 45 && image.height == 23)
        #expect(RasterImage.displaySize(of: bytes).map { [$0.width, $0.height] } == [45, 23])
    }

    /// Found by fuzzing: a second IHDR chunk replaced the first, so the picture decoded at another size
    /// than its header told. A PNG has one IHDR (ISO/IEC 15948, 5.6), as libpng insists.
    @Test func aSecondPNGHeaderIsRefused() throws {
        let bytes = try load("Findings/png-second-header.png")
        #expect(throws: GraphicsError.self) { try RasterImage(decoding: bytes) }
    }

    /// `bytes` (a JPEG) with its Exif segment moved to just after the frame header, or to just
    /// before the end of the image, after the scans.
    private static func movingExif(_ bytes: [UInt8], afterScan: Bool) throws -> [UInt8] {
        var segments: [ArraySlice<UInt8>] = []
        var position = 2
        while bytes[position + 1] != 0xDA {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            segments.append(bytes[position..<position + 2 + length])
            position += 2 + length
        }
        let exif = segments.remove(at: try #require(segments.firstIndex { $0[$0.startIndex + 1] == 0xE1 }))
        let rest = bytes[position..<bytes.count - 2]
        guard !afterScan else { return [0xFF, 0xD8] + segments.joined() + rest + exif + [0xFF, 0xD9] }
        let frame = try #require(segments.firstIndex { [0xC0, 0xC2].contains($0[$0.startIndex + 1]) })
        segments.insert(exif, at: frame + 1)
        return [0xFF, 0xD8] + segments.joined() + rest + [0xFF, 0xD9]
    }

    @Test func exifOrientationTurnsThePictureUpright() throws {
        let bytes = try load("jpeg-orientation6.jpg")
        let picture = try RasterImage(decoding: bytes)
        #expect(picture.width == 37 && picture.height == 23)
        #expect(RasterImage.displaySize(of: bytes).map { [$0.width, $0.height] } == [37, 23])
        #expect(RasterImage.displaySize(of: try load("png-grey1.png")).map { [$0.width, $0.height] } == [37, 23])
    }

    /// Drawn at one device pixel per picture pixel, a picture comes out as itself; fitted into a wider
    /// frame it is centred with clear margins; filled, it covers the frame; undecodable, its fallback shows.
    @Test func canvasDrawsPictures() throws {
        let fonts = try #require(RasterTests.fonts)
        let bytes = try load("png-rgb8.png")
        let picture = try RasterImage(decoding: bytes)
        let uri = "data:image/png;base64," + Data(bytes).base64EncodedString()
        func draw(_ frame: Rect, fills: Bool, source: String? = nil, width: Int = 37) -> Canvas {
            let canvas = Canvas(width: width, height: 23, fonts: fonts)
            let fallback = Element.shape(Shape(path: .rect(frame), fill: DrawingColor(red: 255, green: 0, blue: 255)))
            canvas.draw(
                .image(ImageItem(frame: frame, source: source ?? uri, fills: fills, fallback: [fallback])),
                transform: .identity, opacity: 1)
            return canvas
        }
        let exact = draw(Rect(x: 0, y: 0, width: 37, height: 23), fills: false)
        var largest: Float = 0
        for index in 0..<37 * 23 * 4 {
            largest = max(largest, abs(exact.pixels[index] * 255 - Float(picture.pixels[index])))
        }
        #expect(largest < 1)
        let fitted = draw(Rect(x: 0, y: 0, width: 74, height: 23), fills: false, width: 74)
        #expect(fitted.pixels[(10 * 74 + 5) * 4 + 3] == 0, "left margin is clear")
        #expect(fitted.pixels[(10 * 74 + 37) * 4 + 3] > 0.99, "the picture is centred")
        let filled = draw(Rect(x: 0, y: 0, width: 74, height: 23), fills: true, width: 74)
        #expect(filled.pixels[(10 * 74 + 1) * 4 + 3] > 0.99)
        let broken = draw(Rect(x: 0, y: 0, width: 37, height: 23), fills: false, source: "data:image/png;base64,AAAA")
        #expect(
            broken.pixels[(5 * 37 + 5) * 4] == 1 && broken.pixels[(5 * 37 + 5) * 4 + 1] == 0, "the fallback is drawn")
    }

    @Test func refusesOtherFormats() {
        #expect { try RasterImage(decoding: Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)) } throws: {
            ($0 as? GraphicsError)?.code == .imageUnsupported
        }
    }

    /// Every prefix of a picture is refused with `imageInvalid` or decodes (JPEG shows what arrived), never traps.
    @Test(arguments: ["jpeg-progressive-420.jpg", "png-rgba8-interlaced.png", "png-palette2.png"])
    func truncatedPicturesFailCleanly(name: String) throws {
        let bytes = try load(name)
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            do {
                _ = try RasterImage(decoding: Array(bytes.prefix(length)))
            } catch {
                #expect([.imageInvalid, .imageUnsupported].contains(error.code), "\(name) cut at \(length): \(error)")
            }
        }
    }

    /// Flipped bytes never trap or hang: each damaged file decodes or is refused. (Run once with 3 000
    /// damaged copies per file and seeds 1, 2, 7–13, which found an overflow in EXTEND and in refinement.)
    @Test(arguments: [
        "jpeg-baseline-420.jpg", "jpeg-progressive-444.jpg", "jpeg-restarts-420.jpg", "png-grey4.png",
        "jpeg-progressive-420.jpg", "png-palette2-interlaced.png", "jpeg-cmyk.jpg", "jpeg-orientation6.jpg",
    ])
    func corruptedPicturesFailCleanly(name: String) throws {
        let bytes = try load(name)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<100 {
            var damaged = bytes
            for _ in 0..<3 {
                damaged[Int.random(in: 2..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            _ = try? RasterImage(decoding: damaged, maximumPixels: 100_000)
        }
    }

    @Test func refusesPicturesPastThePixelLimit() throws {
        #expect { try RasterImage(decoding: try load("png-rgb8.png"), maximumPixels: 100) } throws: {
            ($0 as? GraphicsError)?.code == .imageTooLarge
        }
        #expect { try RasterImage(decoding: try load("jpeg-grey.jpg"), maximumPixels: 100) } throws: {
            ($0 as? GraphicsError)?.code == .imageTooLarge
        }
    }

    /// A decompression bomb: a tiny PNG whose data would inflate far past what its header declares.
    @Test func refusesDataPastTheDeclaredSize() throws {
        var header: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]  // 1 × 1 grey
        let idat = Deflate.zlib([UInt8](repeating: 0, count: 1_000_000))
        var file = PNGDecoder.signature
        for (type, body) in [("IHDR", header), ("IDAT", idat), ("IEND", [])] {
            file +=
                withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + Array(type.utf8) + body + [0, 0, 0, 0]
        }
        header.removeAll()
        #expect { try RasterImage(decoding: file) } throws: { ($0 as? GraphicsError)?.code == .imageInvalid }
    }
}

struct InflateTests {
    /// Dynamic and fixed blocks from ``Deflate`` inflate back, for flat, repetitive, random and mixed data.
    @Test(arguments: 0..<12, [true, false])
    func roundTrips(seed: Int, dynamic: Bool) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var input: [UInt8] = []
        let length = [0, 1, 2, 3, 259, 4096, 70_000, 200_000][seed % 8]
        while input.count < length {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                input += [UInt8](
                    repeating: UInt8.random(in: 0...255, using: &generator),
                    count: Int.random(in: 1...600, using: &generator))
            case 1:
                input += (0..<Int.random(in: 1...300, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            default:
                let pattern = (0..<Int.random(in: 1...9, using: &generator)).map { _ in
                    UInt8.random(in: 0...3, using: &generator)
                }
                for _ in 0..<Int.random(in: 1...200, using: &generator) { input += pattern }
            }
        }
        input = Array(input.prefix(length))
        let compressed = Deflate.zlib(input, dynamic: dynamic)
        #expect(try Inflate.zlib(compressed, limit: input.count) == input)
        if input.count > 0 {
            #expect(throws: Inflate.Failure.self) { try Inflate.zlib(compressed, limit: input.count - 1) }
        }
    }

    /// A dynamic-Huffman stream made by zlib itself (Python's `zlib.compress(data, 9)`, `data` as below).
    @Test func readsZlibsOwnDynamicBlocks() throws {
        let stream = try #require(
            Data(
                base64Encoded: """
                    eNrt0kEOAiEMBdCr/BN4AU/g1ht0sDMgCEgZRjy9xJ1rNdGku7Y/6eLnkU3NnK83DnJf4jq5vJ186fOl0rvJIaJaxtG6yGgUAvfnoY1dsJS0IUVIZc6QkPI4pnlMVHmP7IznIjBUSsdE\
                    4rkK1mxdCDt88fVnO3hJ/rMQUiEqRIWoEBWiQlSIClEhP1DIA6n7g7Y=
                    """))
        let text = Array(
            "In the Rhine valley the vines grow on steep slopes of slate; pickers carry baskets uphill. ".utf8)
        let expected = (0..<3000).map { index in
            (index / text.count) % 3 != 0 ? text[index % text.count] : UInt8((index * 7) % 26 + 97)
        }
        #expect(stream[2] >> 1 & 3 == 2, "the first block is dynamic")
        #expect(try Inflate.zlib([UInt8](stream), limit: 1 << 20) == expected)
    }

    @Test func dynamicBlocksAreSmallerOnText() {
        let text =
            Array(
                String(
                    repeating: "The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. ",
                    count: 50
                ).utf8)
            + (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) & 0x3F }
        #expect(Deflate.zlib(text, dynamic: true).count < Deflate.zlib(text, dynamic: false).count * 9 / 10)
    }

    @Test func buildsLengthLimitedCodes() {
        // Fibonacci counts make the deepest possible Huffman tree; the limit must hold anyway.
        var counts = [1, 1]
        while counts.count < 30 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        let lengths = HuffmanCode.lengths(counts, limit: 15)
        #expect(lengths.allSatisfy { (1...15).contains($0) })
        let kraft = lengths.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
        #expect(kraft <= 1)
        #expect(HuffmanCode.lengths([0, 0, 5, 0], limit: 7).filter { $0 > 0 }.count == 2)
    }
}

struct JPEGHuffmanTests {
    /// Three codes of one bit cannot exist: the table is refused instead of indexing past its lookup.
    @Test func refusesOverfullLengths() {
        #expect(JPEGHuffman(counts: [3] + [Int](repeating: 0, count: 15), symbols: [1, 2, 3]) == nil)
        #expect(JPEGHuffman(counts: [0, 5] + [Int](repeating: 0, count: 14), symbols: [1, 2, 3, 4, 5]) == nil)
        #expect(JPEGHuffman(counts: [0, 4] + [Int](repeating: 0, count: 14), symbols: [1, 2, 3, 4]) != nil)
    }
}
