import Foundation

/// A premultiplied RGBA pixel buffer that paints drawing elements with anti-aliasing.
struct Canvas {
    let width: Int, height: Int
    /// Premultiplied red, green, blue, alpha per pixel, each 0…1.
    private(set) var pixels: [Float]
    private var clips: [Clip] = []
    private let fonts: FontLibrary
    private var glyphCache: [GlyphKey: Path] = [:]

    /// Where painting may happen: a pixel block and, for non-rectangular clips, a coverage mask over it.
    private struct Clip {
        var left: Int, top: Int, right: Int, bottom: Int
        var mask: [Float]?

        func coverage(_ x: Int, _ y: Int) -> Float {
            guard x >= left, x < right, y >= top, y < bottom else { return 0 }
            guard let mask else { return 1 }
            return mask[(y - top) * (right - left) + (x - left)]
        }
    }

    private struct GlyphKey: Hashable {
        let face: FontFace
        let glyph: UInt16
    }

    init(width: Int, height: Int, fonts: FontLibrary) {
        self.width = width
        self.height = height
        self.fonts = fonts
        self.pixels = [Float](repeating: 0, count: width * height * 4)
        self.clips = [Clip(left: 0, top: 0, right: width, bottom: height, mask: nil)]
    }

    mutating func draw(_ elements: [Element], transform: Transform, opacity: Double) {
        for element in elements { draw(element, transform: transform, opacity: opacity) }
    }

    mutating func draw(_ element: Element, transform: Transform, opacity: Double) {
        switch element {
        case .shape(let shape):
            let polylines = shape.path.applying(transform).flattened(tolerance: 0.1)
            if let fill = shape.fill { fillPolylines(polylines, fill.fading(opacity)) }
            if let stroke = shape.stroke {
                let width = stroke.width * transform.averageScale
                let dash = stroke.dash.map { $0 * transform.averageScale }
                let outlines = Stroker.outlines(of: polylines, width: width, dash: dash, round: stroke.isRound)
                fillPolylines(outlines, stroke.color.fading(opacity))
            }
        case .text(let run): drawText(run, transform: transform, opacity: opacity)
        case .image(let image): draw(image.fallback, transform: transform, opacity: opacity)
        case .media(let media): draw(media.fallback, transform: transform, opacity: opacity)
        case .group(let group):
            guard group.isVisibleStatically else { return }
            let inner = transform.concatenating(group.transform)
            if let clip = group.clip { pushClip(clip.applying(inner)) }
            draw(group.elements, transform: inner, opacity: opacity * group.opacity)
            if group.clip != nil { clips.removeLast() }
        }
    }

    private mutating func drawText(_ run: TextRun, transform: Transform, opacity: Double) {
        let font = fonts.font(for: run.face)
        let scale = run.size / font.unitsPerEm
        let slant = fonts.needsSyntheticSlant(run.face) ? 0.2 : 0
        var pen = run.origin.x
        var outline = Path()
        for scalar in run.text.unicodeScalars {
            let glyph = font.glyph(for: scalar)
            let key = GlyphKey(face: run.face, glyph: glyph)
            let glyphPath: Path
            if let cached = glyphCache[key] {
                glyphPath = cached
            } else {
                glyphPath = font.outline(ofGlyph: glyph)
                glyphCache[key] = glyphPath
            }
            if !glyphPath.isEmpty {
                let place = Transform(a: scale, b: 0, c: -slant * scale, d: -scale, tx: pen, ty: run.origin.y)
                outline.append(glyphPath.applying(transform.concatenating(place)))
            }
            pen += font.advance(ofGlyph: glyph) * scale
        }
        let color = run.color.fading(opacity)
        fillPolylines(outline.flattened(tolerance: 0.08), color)
        if run.isUnderlined {
            let thickness = max(0.5, run.size / 14)
            let line = Rect(x: run.origin.x, y: run.origin.y + run.size * 0.12, width: pen - run.origin.x, height: thickness)
            fillPolylines(Path.rect(line).applying(transform).flattened(), color)
        }
    }

    private mutating func pushClip(_ path: Path) {
        let current = clips[clips.count - 1]
        let polylines = path.flattened(tolerance: 0.1)
        guard let bounds = pixelBounds(polylines, within: current) else {
            clips.append(Clip(left: 0, top: 0, right: 0, bottom: 0, mask: nil))
            return
        }
        var raster = CoverageRaster(left: bounds.left, top: bounds.top, width: bounds.right - bounds.left, height: bounds.bottom - bounds.top)
        raster.add(polylines)
        var mask = [Float](repeating: 0, count: raster.width * raster.height)
        raster.forEachCoveredPixel { x, y, coverage in
            mask[(y - bounds.top) * raster.width + (x - bounds.left)] = coverage * current.coverage(x, y)
        }
        clips.append(Clip(left: bounds.left, top: bounds.top, right: bounds.right, bottom: bounds.bottom, mask: mask))
    }

    private func pixelBounds(_ polylines: [Polyline], within clip: Clip) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for polyline in polylines {
            for point in polyline.points {
                minX = min(minX, point.x); maxX = max(maxX, point.x)
                minY = min(minY, point.y); maxY = max(maxY, point.y)
            }
        }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let left = max(clip.left, Int(minX.rounded(.down))), right = min(clip.right, Int(maxX.rounded(.up)) + 1)
        let top = max(clip.top, Int(minY.rounded(.down))), bottom = min(clip.bottom, Int(maxY.rounded(.up)) + 1)
        return left < right && top < bottom ? (left, top, right, bottom) : nil
    }

    private mutating func fillPolylines(_ polylines: [Polyline], _ color: DrawingColor) {
        guard color.opacity > 0, let clip = clips.last, let bounds = pixelBounds(polylines, within: clip) else { return }
        var raster = CoverageRaster(left: bounds.left, top: bounds.top, width: bounds.right - bounds.left, height: bounds.bottom - bounds.top)
        raster.add(polylines)
        let alpha = Float(color.opacity)
        let red = Float(color.red) / 255 * alpha, green = Float(color.green) / 255 * alpha, blue = Float(color.blue) / 255 * alpha
        raster.forEachCoveredPixel { x, y, coverage in
            let amount = coverage * clip.coverage(x, y)
            guard amount > 0 else { return }
            let index = (y * width + x) * 4
            let keep = 1 - alpha * amount
            pixels[index] = red * amount + pixels[index] * keep
            pixels[index + 1] = green * amount + pixels[index + 1] * keep
            pixels[index + 2] = blue * amount + pixels[index + 2] * keep
            pixels[index + 3] = alpha * amount + pixels[index + 3] * keep
        }
    }
}
