public import ARVisGraphics
import ARVisSpatial
import ARVisSupport
import Foundation

/// A project's printable marker: its QR code in the middle of a square ringed with shapes drawn
/// from the text, framed in black.
///
/// A device that tracks pictures (WebXR `image-tracking`, ARKit, ARCore) finds the marker by its
/// features, and a QR code's squares alone repeat too much to score as trackable: the ring of
/// triangles, bars and discs of many sizes, never the same twice, gives the picture corners and
/// texture everywhere. The shapes come from the text alone, so the same link gives the same marker
/// on every print.
public struct ProjectMarker: Sendable, Hashable {
    /// What the QR code says.
    public let text: String

    /// The width the marker is printed at, metres (20 cm: an A4 page with its margins).
    public static let printedWidth = 0.2

    /// Creates the marker of `text`.
    public init(text: String) { self.text = text }

    /// The marker as a drawing `side` points square.
    /// - Throws: ``GraphicsError`` when the text is too long for a QR code.
    public func drawing(side: Double = 1000) throws -> Drawing {
        let code = try QRCode(encoding: text, errorCorrection: .medium)
        let unit = side / 100
        var elements: [ARVisGraphics.Element] = [
            .shape(Shape(path: .rect(Rect(x: 0, y: 0, width: side, height: side)), fill: .black)),
            .shape(
                Shape(path: .rect(Rect(x: 4 * unit, y: 4 * unit, width: 92 * unit, height: 92 * unit)), fill: .white)),
        ]
        elements += ringShapes().map { .shape(Shape(path: $0.applying(.scale(unit, unit)), fill: .black)) }
        let qr = code.drawing(moduleSize: 1)
        let scale = 44 * unit / qr.extent.width
        elements.append(
            .group(
                Group(
                    qr.elements,
                    transform: Transform.translation(28 * unit, 28 * unit).concatenating(.scale(scale, scale)))))
        return Drawing(extent: Size(width: side, height: side), title: "Project marker", elements: elements)
    }

    /// The ring's shapes, in a 100-unit square: inside the frame (4…96), outside the QR code's
    /// square (28…72) and a little apart from both.
    func ringShapes() -> [Path] {
        var random = SplitMix64(seed: Self.seed(of: text))
        var shapes: [Path] = []
        var placed: [(x: Double, y: Double, r: Double)] = []
        var attempts = 0
        while shapes.count < 90, attempts < 5_000 {
            attempts += 1
            let r = 1.2 + 4.5 * pow(Double.random(in: 0..<1, using: &random), 2)
            let x = 6 + r + (88 - 2 * r) * Double.random(in: 0..<1, using: &random)
            let y = 6 + r + (88 - 2 * r) * Double.random(in: 0..<1, using: &random)
            let clearOfCode = x + r < 26 || x - r > 74 || y + r < 26 || y - r > 74
            guard clearOfCode, placed.allSatisfy({ hypot($0.x - x, $0.y - y) > $0.r + r + 1 }) else { continue }
            placed.append((x, y, r))
            shapes.append(
                Self.shape(
                    kind: shapes.count % 3, x: x, y: y, r: r, turn: 2 * .pi * Double.random(in: 0..<1, using: &random)))
        }
        return shapes
    }

    /// A triangle, a bar or a disc of radius `r` about (`x`, `y`).
    private static func shape(kind: Int, x: Double, y: Double, r: Double, turn: Double) -> Path {
        switch kind {
        case 0:
            return polygon((0..<3).map { turn + 2 * .pi * Double($0) / 3 }, x, y, r)
        case 1:
            return polygon([turn - 0.45, turn + 0.45, turn + .pi - 0.45, turn + .pi + 0.45], x, y, r)
        default:
            return .circle(center: Point(x, y), radius: r * 0.8)
        }
    }

    /// A closed polygon through the points at `angles` on the circle of radius `r` about (`x`, `y`).
    private static func polygon(_ angles: [Double], _ x: Double, _ y: Double, _ r: Double) -> Path {
        var path = Path.polyline(angles.map { Point(x + r * cos($0), y + r * sin($0)) })
        path.close()
        return path
    }

    /// A 64-bit FNV-1a hash of the text: the shapes' seed.
    static func seed(of text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

}
