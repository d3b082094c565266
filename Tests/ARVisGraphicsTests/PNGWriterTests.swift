import ARVisGraphics
import Foundation
import Testing

struct PNGWriterTests {
    @Test func writesAValidPNGWithTextAndShapes() throws {
        let fonts = try FontLibrary.standard()
        var drawing = Drawing(extent: Extent(width: 240, height: 120), title: "Test")
        drawing.elements = [
            .shape(Shape(path: .roundedRect(Rect(x: 4, y: 4, width: 232, height: 112), radius: 16), fill: .white,
                         stroke: Stroke(color: DrawingColor(red: 0, green: 122, blue: 255), width: 2))),
            .text(TextRun("Hello, ARVis — ÅÉ", at: Point(16, 48), face: .bold, size: 20)),
            .text(TextRun("italic serif", at: Point(16, 80), face: FontFace(family: .serif, isItalic: true), size: 16, color: DrawingColor(red: 255, green: 59, blue: 48))),
            .shape(Shape(path: .polyline([Point(16, 100), Point(80, 92), Point(140, 108), Point(220, 96)]), stroke: Stroke(color: .black, width: 1.5, dash: [4, 3]))),
        ]
        let png = try PNGWriter(fonts: fonts, scale: 2).write(drawing)
        #expect(Array(png.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10])
        try Data(png).write(to: URL(fileURLWithPath: "/tmp/arvis-test.png"))
    }
}
