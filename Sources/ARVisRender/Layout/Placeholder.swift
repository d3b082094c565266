import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation

/// Stand-ins drawn where media cannot be shown, and the chrome of players.
enum Placeholder {
    /// The last path component of a URL, for captions.
    static func fileName(_ url: String) -> String {
        let path = URLComponents(string: url)?.path ?? url
        let name = path.split(separator: "/").last.map(String.init) ?? url
        return name.removingPercentEncoding ?? name
    }

    /// A `data:` URI holding a resource.
    static func dataURI(_ resource: RenderOptions.Resource) -> String {
        "data:\(resource.mimeType);base64,\(Data(resource.data).base64EncodedString())"
    }

    /// A grey card with a landscape pictogram and the file name.
    static func picture(in rect: Rect, caption: String, context: RenderContext) -> [Element] {
        var elements: [Element] = [.shape(Shape(path: .rect(rect), fill: Theme.placeholderFill))]
        let unit = min(rect.width, rect.height) / 6
        guard unit > 2 else { return elements }
        let center = Point(rect.midX, rect.midY - (rect.height > 60 ? unit * 0.4 : 0))
        var mountains = Path()
        mountains.move(to: Point(center.x - 1.5 * unit, center.y + unit))
        mountains.line(to: Point(center.x - 0.4 * unit, center.y - 0.3 * unit))
        mountains.line(to: Point(center.x + 0.3 * unit, center.y + 0.4 * unit))
        mountains.line(to: Point(center.x + 0.7 * unit, center.y))
        mountains.line(to: Point(center.x + 1.5 * unit, center.y + unit))
        mountains.close()
        elements.append(.shape(Shape(path: mountains, fill: Theme.placeholderInk)))
        elements.append(
            .shape(
                Shape(
                    path: .circle(center: Point(center.x + 0.9 * unit, center.y - 0.6 * unit), radius: 0.3 * unit),
                    fill: Theme.placeholderInk)))
        if rect.height > 60 && rect.width > 60 {
            let label = TextBlock(
                plain: caption,
                style: TextStyle(
                    size: min(13, unit * 0.8), color: Theme.placeholderInk, alignment: .center, lineLimit: 1))
            let width = rect.width - 16
            let height = label.size(for: Proposal(width: width, height: nil), in: context).height
            elements += label.draw(
                in: Rect(x: rect.minX + 8, y: center.y + unit * 1.3, width: width, height: height), context: context)
        }
        return elements
    }

    /// A soft shadow, as SwiftUI's `shadow(color: .primary.opacity(0.1), radius:)` looks: the shape
    /// `grown(spread)` in 1-point rings of faint black whose opacities add up to a Gaussian falloff
    /// (σ = radius / 2) from 10 % at the shape's edge.
    static func softShadow(radius: Double, _ grown: (Double) -> Path) -> [Element] {
        let sigma = max(0.5, radius / 2)
        func falloff(_ distance: Double) -> Double { 0.1 * exp(-distance * distance / (2 * sigma * sigma)) }
        let reach = max(1, min(64, Int(saturating: radius.rounded(.up))))
        return stride(from: reach, through: 1, by: -1).map { ring in
            let spread = Double(ring)
            return .shape(
                Shape(
                    path: grown(spread),
                    fill: DrawingColor(red: 0, green: 0, blue: 0, opacity: falloff(spread - 1) - falloff(spread))))
        }
    }

    /// A round white play button.
    static func playButton(center: Point, radius: Double) -> [Element] {
        var triangle = Path()
        triangle.move(to: Point(center.x - radius * 0.35, center.y - radius * 0.45))
        triangle.line(to: Point(center.x + radius * 0.5, center.y))
        triangle.line(to: Point(center.x - radius * 0.35, center.y + radius * 0.45))
        triangle.close()
        return [
            .shape(Shape(path: .circle(center: center, radius: radius), fill: DrawingColor.white.fading(0.9))),
            .shape(Shape(path: triangle, fill: .black)),
        ]
    }
}

/// Reads pixel dimensions from PNG, GIF and JPEG headers.
enum ImageHeader {
    static func pixelSize(_ bytes: [UInt8]) -> (width: Double, height: Double)? {
        if let size = RasterImage.displaySize(of: bytes) { return (Double(size.width), Double(size.height)) }
        if bytes.count >= 10, bytes.starts(with: Array("GIF".utf8)) {
            return (Double(Int(bytes[6]) | Int(bytes[7]) << 8), Double(Int(bytes[8]) | Int(bytes[9]) << 8))
        }
        return nil
    }

    /// The media type for image bytes.
    static func mimeType(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [137, 80, 78, 71]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF".utf8)) { return "image/gif" }
        if bytes.count > 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        if bytes.starts(with: Array("<svg".utf8)) || bytes.starts(with: Array("<?xml".utf8)) { return "image/svg+xml" }
        return "application/octet-stream"
    }
}
