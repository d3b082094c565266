public import ARVisSupport
import Foundation

/// A one-page PDF holding a picture at an exact printed width, centred, with lines of text under it:
/// what a marker needs to be printed at the size a tracker is told.
///
/// The picture is an opaque 8-bit RGB PNG as ``PNGWriter`` writes it; its compressed rows go into
/// the PDF as they are (PDF's Flate filter takes PNG's row predictors), so nothing is decoded.
///
/// ```swift
/// let pdf = try PDFPictureSheet(png: marker, width: 200, lines: ["Print at 100 %"]).bytes
/// ```
public struct PDFPictureSheet: Sendable {
    /// The page size in points: A4.
    public static let page = (width: 595.2756, height: 841.8898)
    /// Points per millimetre.
    static let pointsPerMillimetre = 72 / 25.4

    /// The PDF's bytes.
    public let bytes: [UInt8]

    /// Lays out the page.
    /// - Parameters:
    ///   - png: the picture, an opaque 8-bit RGB PNG without interlacing.
    ///   - width: its printed width in millimetres (its height keeps its proportions).
    ///   - lines: text under it, in Helvetica; characters outside printable ASCII print as `?`.
    /// - Throws: ``GraphicsError`` `imageUnsupported` for another kind of PNG, or a picture wider than the page.
    public init(png: [UInt8], width: Double, lines: [String]) throws(GraphicsError) {
        let picture = try Self.rows(of: png)
        let printed = width * Self.pointsPerMillimetre
        guard printed > 0, printed <= Self.page.width - 20 else {
            throw GraphicsError(.invalidArgument, "a picture \(width) mm wide does not fit an A4 page")
        }
        let height = printed * Double(picture.height) / Double(picture.width)
        let left = (Self.page.width - printed) / 2
        let bottom = Self.page.height - 60 - height
        var content = String(format: "q %.4f 0 0 %.4f %.4f %.4f cm /Im0 Do Q\n", printed, height, left, bottom)
        for (index, line) in lines.enumerated() {
            content += String(
                format: "BT /F0 11 Tf %.4f %.4f Td (%@) Tj ET\n", left, bottom - 24 - 16 * Double(index),
                Self.escaped(line))
        }
        let imageHeader =
            "<< /Type /XObject /Subtype /Image /Width \(picture.width) /Height \(picture.height) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns \(picture.width) >> /Length \(picture.data.count) >>"
        let objects: [[UInt8]] = [
            Array("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Array(
                String(
                    format:
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.4f %.4f] /Resources << /XObject << /Im0 4 0 R >> /Font << /F0 5 0 R >> >> /Contents 6 0 R >>",
                    Self.page.width, Self.page.height
                ).utf8),
            Array("\(imageHeader)\nstream\n".utf8) + picture.data + Array("\nendstream".utf8),
            Array("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".utf8),
            Array("<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream".utf8),
        ]
        var file = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(file.count)
            file += Array("\(index + 1) 0 obj\n".utf8) + object + Array("\nendobj\n".utf8)
        }
        let table = file.count
        file += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { file += Array(String(format: "%010d 00000 n \n", offset).utf8) }
        file += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n".utf8)
        bytes = file
    }

    /// A PDF string's text: printable ASCII, with `\`, `(` and `)` escaped.
    static func escaped(_ text: String) -> String {
        String(
            text.unicodeScalars.flatMap { scalar -> [Character] in
                guard (0x20...0x7e).contains(scalar.value) else { return ["?"] }
                let character = Character(scalar)
                return "\\()".contains(character) ? ["\\", character] : [character]
            })
    }

    /// The size and the compressed, row-filtered pixels of an opaque 8-bit RGB PNG.
    static func rows(of png: [UInt8]) throws(GraphicsError) -> (width: Int, height: Int, data: [UInt8]) {
        let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        let refusal = GraphicsError(.imageUnsupported, "the sheet takes an opaque 8-bit RGB PNG without interlacing")
        guard png.count > 33, Array(png.prefix(8)) == signature else { throw refusal }
        func number(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var (width, height, data, offset) = (0, 0, [UInt8](), 8)
        while offset + 12 <= png.count {
            let length = number(offset)
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= png.count else { throw refusal }
            switch type {
            case "IHDR":
                guard length == 13, png[start + 8] == 8, png[start + 9] == 2, png[start + 12] == 0 else {
                    throw refusal
                }
                (width, height) = (number(start), number(start + 4))
            case "IDAT": data += png[start..<(start + length)]
            default: break
            }
            offset = start + length + 4
        }
        guard width > 0, height > 0, !data.isEmpty else { throw refusal }
        return (width, height, data)
    }
}
