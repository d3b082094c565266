import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Testing

@testable import ARVisGraphics

struct DeflateTests {
    // Round trips through Inflate, dynamic and fixed: InflateTests.

    @Test func compressesFlatPicturesWell() {
        let input = [UInt8](repeating: 255, count: 1_000_000)
        #expect(Deflate.zlib(input).count < 10_000)
    }
}

struct RasterTests {
    static let fonts = try? FontLibrary.standard()

    private func render(_ elements: [Element], width: Int = 8, height: Int = 8) throws -> Canvas {
        let canvas = Canvas(width: width, height: height, fonts: try #require(Self.fonts))
        canvas.draw(elements, transform: .identity, opacity: 1)
        return canvas
    }

    private func alpha(_ canvas: Canvas, _ x: Int, _ y: Int) -> Float { canvas.pixels[(y * canvas.width + x) * 4 + 3] }

    @Test func coverageOfARectangleIsExactAtFractionalEdges() throws {
        let canvas = try render([.shape(Shape(path: .rect(Rect(x: 1.5, y: 2.25, width: 3, height: 2)), fill: .black))])
        #expect(abs(alpha(canvas, 1, 3) - 0.5) < 1e-5)  // half a pixel wide
        #expect(abs(alpha(canvas, 2, 3) - 1) < 1e-5)  // inside
        #expect(abs(alpha(canvas, 2, 2) - 0.75) < 1e-5)  // three quarters tall
        #expect(abs(alpha(canvas, 1, 2) - 0.375) < 1e-5)  // corner: 0.5 × 0.75
        #expect(alpha(canvas, 0, 0) == 0 && alpha(canvas, 6, 3) == 0)
    }

    /// Total coverage equals the area of the shape, for circles of many sizes and positions, within what
    /// flattening curves to 0.1 px allows (the perimeter times the tolerance).
    @Test(arguments: [(10.3, 12.7, 4.1), (32, 32, 20), (5.5, 40.25, 3.3), (52, 10, 7.77), (31.5, 31.5, 31)])
    func coverageSumsToArea(x: Double, y: Double, radius: Double) throws {
        let canvas = try render(
            [.shape(Shape(path: .circle(center: Point(x, y), radius: radius), fill: .black))], width: 64, height: 64)
        var total = 0.0
        for index in 0..<(64 * 64) { total += Double(canvas.pixels[index * 4 + 3]) }
        let area = Double.pi * radius * radius
        #expect(abs(total - area) <= 2 * Double.pi * radius * 0.1)
    }

    @Test func clipsAndOpacityCompose() throws {
        let canvas = try render([
            .group(
                Group(
                    [.shape(Shape(path: .rect(Rect(x: 0, y: 0, width: 8, height: 8)), fill: .black))],
                    clip: .rect(Rect(x: 2, y: 2, width: 2, height: 2)), opacity: 0.5))
        ])
        #expect(abs(alpha(canvas, 2, 2) - 0.5) < 1e-5)
        #expect(alpha(canvas, 1, 1) == 0 && alpha(canvas, 4, 4) == 0)
    }

    @Test func strokesCoverTheirWidth() throws {
        let canvas = try render([
            .shape(Shape(path: .polyline([Point(0, 4), Point(8, 4)]), stroke: Stroke(color: .black, width: 2)))
        ])
        #expect(abs(alpha(canvas, 3, 3) - 1) < 1e-5 && abs(alpha(canvas, 3, 4) - 1) < 1e-5)
        #expect(alpha(canvas, 3, 1) == 0 && alpha(canvas, 3, 6) == 0)
    }

    @Test func writesAPNGWithValidChunksAndPixels() throws {
        let fonts = try #require(Self.fonts)
        let drawing = Drawing(
            extent: Size(width: 20, height: 10),
            elements: [
                .shape(
                    Shape(
                        path: .rect(Rect(x: 0, y: 0, width: 20, height: 10)),
                        fill: DrawingColor(red: 10, green: 20, blue: 30))),
                .text(TextRun("Hi", at: Point(2, 8), size: 8, color: .white)),
            ])
        let png = try PNGWriter(fonts: fonts, scale: 2).write(drawing)
        #expect(Array(png.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10])
        var position = 8
        var idat: [UInt8] = []
        var types: [String] = []
        while position + 12 <= png.count {
            let length = Int(png[position..<position + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = Array(png[position + 4..<position + 8])
            let data = Array(png[position + 8..<position + 8 + length])
            let crc = png[position + 8 + length..<position + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(crc == PNGEncoder.crc32(type + data))
            types.append(String(decoding: type, as: UTF8.self))
            if types.last == "IDAT" { idat += data }
            position += 12 + length
        }
        #expect(types == ["IHDR", "IDAT", "IEND"])
        let rows = try Inflate.zlib(idat, limit: 1 << 26)
        #expect(rows.count == 20 * (40 * 3 + 1))  // 40×20 pixels, opaque RGB, a filter byte per row
        #expect(Array(rows[1...3]) == [10, 20, 30])  // first pixel, Sub filter: the colour itself
    }

    /// Undoing the Sub and Up filters gives back every pixel: a picture of four coloured quarters.
    @Test func scanlinesUnfilterToThePicture() throws {
        let fonts = try #require(Self.fonts)
        let colours = [
            DrawingColor(red: 200, green: 10, blue: 30), DrawingColor(red: 0, green: 255, blue: 7),
            DrawingColor(red: 1, green: 2, blue: 3), DrawingColor(red: 250, green: 128, blue: 0),
        ]
        var drawing = Drawing(extent: Size(width: 37, height: 20))
        for (index, colour) in colours.enumerated() {
            let rect = Rect(
                x: index % 2 == 0 ? 0 : 18, y: index < 2 ? 0 : 10, width: index % 2 == 0 ? 18 : 19, height: 10)
            drawing.elements.append(.shape(Shape(path: .rect(rect), fill: colour)))
        }
        let png = try PNGWriter(fonts: fonts).write(drawing)
        var idat: [UInt8] = []
        var position = 8
        while position + 12 <= png.count {
            let length = Int(png[position..<position + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            if String(decoding: png[position + 4..<position + 8], as: UTF8.self) == "IDAT" {
                idat += png[position + 8..<position + 8 + length]
            }
            position += 12 + length
        }
        let data = try Inflate.zlib(idat, limit: 1 << 26)
        let stride = 37 * 3
        var previous = [UInt8](repeating: 0, count: stride)
        for row in 0..<20 {
            let filter = data[row * (stride + 1)]
            var line = Array(data[(row * (stride + 1) + 1)...(row * (stride + 1) + stride)])
            for index in line.indices {
                switch filter {
                case 1: line[index] &+= index >= 3 ? line[index - 3] : 0
                case 2: line[index] &+= previous[index]
                default: #expect(filter == 0)
                }
            }
            for x in [0, 17, 18, 36] {
                let colour = colours[(row < 10 ? 0 : 2) + (x < 18 ? 0 : 1)]
                #expect(
                    Array(line[(x * 3)..<(x * 3 + 3)]) == [colour.red, colour.green, colour.blue], "pixel \(x), \(row)")
            }
            previous = line
        }
    }

    @Test func refusesCanvasesBeyondThePixelLimit() throws {
        let fonts = try #require(Self.fonts)
        #expect(throws: GraphicsError.self) {
            try PNGWriter(fonts: fonts, scale: 8).write(Drawing(extent: Size(width: 100_000, height: 100_000)))
        }
    }
}
