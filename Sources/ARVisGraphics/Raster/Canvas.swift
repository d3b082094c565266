import ARVisSupport
import Foundation

/// A premultiplied RGBA pixel buffer that paints drawing elements with anti-aliasing.
final class Canvas {
    let width: Int, height: Int
    /// Premultiplied red, green, blue, alpha per pixel, each 0…1.
    let pixels: UnsafeMutablePointer<Float>
    private var raster: CoverageRaster
    private var clips: [Clip]
    private let fonts: FontLibrary
    private var glyphs: [GlyphKey: GlyphOutline] = [:]
    /// Pictures decoded from `data:` URIs (`nil`: not decodable, draw the fallback), by URI.
    private var pictures: [String: RasterImage?] = [:]
    /// Why each picture that could not be decoded was drawn as its fallback.
    private(set) var pictureFailures: [GraphicsError] = []

    /// Where painting may happen: a pixel block and, for non-rectangular clips, a coverage mask over it.
    private struct Clip {
        var left: Int, top: Int, right: Int, bottom: Int
        var mask: [Float]?

        static let empty = Clip(left: 0, top: 0, right: 0, bottom: 0, mask: nil)
    }

    /// A glyph flattened at one pixel size, relative to its pen position, with its bounds.
    private struct GlyphOutline {
        var polylines: [Polyline]
        var minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    private struct GlyphKey: Hashable {
        let face: FontFace
        /// Whether the glyph is the fallback font's.
        let isFallback: Bool
        let glyph: UInt16
        /// Pixel size in 1/64 pixel.
        let size: Int
    }

    init(width: Int, height: Int, fonts: FontLibrary) {
        self.width = width
        self.height = height
        self.fonts = fonts
        pixels = .allocate(capacity: width * height * 4)
        pixels.initialize(repeating: 0, count: width * height * 4)
        raster = CoverageRaster(width: width, height: height)
        clips = [Clip(left: 0, top: 0, right: width, bottom: height, mask: nil)]
    }

    deinit {
        pixels.deallocate()
        raster.deallocate()
    }

    func draw(_ elements: [Element], transform: Transform, opacity: Double) {
        for element in elements { draw(element, transform: transform, opacity: opacity) }
    }

    func draw(_ element: Element, transform: Transform, opacity: Double) {
        switch element {
        case .shape(let shape):
            let polylines = shape.path.applying(transform).flattened(tolerance: 0.1)
            if let color = shape.fill { fill(polylines, color.fading(opacity)) }
            if let stroke = shape.stroke {
                let width = stroke.width * transform.averageScale
                let dash = stroke.dash.map { $0 * transform.averageScale }
                fill(
                    Stroker.outlines(of: polylines, width: width, dash: dash, round: stroke.isRound),
                    stroke.color.fading(opacity))
            }
        case .text(let run): drawText(run, transform: transform, opacity: opacity)
        case .image(let image): drawImage(image, transform: transform, opacity: opacity)
        case .media(let media): draw(media.fallback, transform: transform, opacity: opacity)
        case .group(let group):
            guard group.isVisibleStatically else { return }
            let inner = transform.concatenating(group.transform)
            if let clip = group.clip { pushClip(clip.applying(inner).flattened(tolerance: 0.1)) }
            draw(group.elements, transform: inner, opacity: opacity * group.opacity)
            if group.clip != nil { clips.removeLast() }
        }
    }

    // MARK: Pictures

    /// A decodable PNG or JPEG `data:` URI fitted into (or filling) its frame; anything else draws its fallback.
    private func drawImage(_ item: ImageItem, transform: Transform, opacity: Double) {
        guard let source = item.source, let picture = picture(source, name: item.name) else {
            return draw(item.fallback, transform: transform, opacity: opacity)
        }
        let frame = item.frame
        let width = Double(picture.width)
        let height = Double(picture.height)
        let scale =
            item.fills
            ? max(frame.width / width, frame.height / height) : min(frame.width / width, frame.height / height)
        guard scale.isFinite, scale > 0 else { return }
        let placed = Rect(
            x: frame.midX - width * scale / 2, y: frame.midY - height * scale / 2, width: width * scale,
            height: height * scale)
        let toPixels = transform.concatenating(
            Transform(a: scale, b: 0, c: 0, d: scale, tx: placed.minX, ty: placed.minY))
        guard let paint = PicturePaint(picture, toPixels: toPixels, opacity: opacity) else { return }
        fill(Path.rect(item.fills ? frame : placed).applying(transform).flattened(tolerance: 0.1), paint)
    }

    private func picture(_ source: String, name: String?) -> RasterImage? {
        if let cached = pictures[source] { return cached }
        var picture: RasterImage?
        if source.hasPrefix("data:"), let comma = source.firstIndex(of: ","), source[..<comma].hasSuffix(";base64"),
            let bytes = Data(base64Encoded: String(source[source.index(after: comma)...]))
        {
            do {
                picture = try RasterImage(decoding: [UInt8](bytes))
            } catch {
                pictureFailures.append(GraphicsError(error.code, error.message, location: name, cause: error.cause))
            }
        }
        pictures[source] = picture
        return picture
    }

    // MARK: Text

    private func drawText(_ run: TextRun, transform: Transform, opacity: Double) {
        let font = fonts.font(for: run.face)
        let slant = fonts.needsSyntheticSlant(run.face) ? 0.2 : 0
        let color = run.color.fading(opacity)
        // Glyphs are cached flattened at their pixel size when the transform only scales and moves.
        let pixelSize = run.size * transform.a
        let simple =
            transform.b == 0 && transform.c == 0 && transform.a == transform.d && pixelSize > 0 && pixelSize < 2000
        var pen = run.origin.x
        var placed: [(GlyphOutline, Point)] = []
        var outline = Path()
        var previous: UInt16?
        var emojiPictures: [(ColorEmojiFont.Bitmap, UInt16, Double)] = []
        func drawScalar(_ scalar: Unicode.Scalar) {
            // A scalar DejaVu lacks comes from the fallback font, without kerning across the two.
            let fallback = font.fallback(for: scalar)
            let source = fallback ?? font
            let glyph = source.glyph(for: scalar)
            let scale = run.size / source.unitsPerEm
            if let previous, fallback == nil { pen += font.kerning(between: previous, and: glyph) * scale }
            previous = fallback == nil ? glyph : nil
            if simple {
                let cached = cachedGlyph(
                    source, run.face, glyph, pixelSize: pixelSize, slant: slant, isFallback: fallback != nil)
                placed.append((cached, transform.apply(Point(pen, run.origin.y))))
            } else {
                let place = Transform(a: scale, b: 0, c: -slant * scale, d: -scale, tx: pen, ty: run.origin.y)
                outline.append(source.outline(ofGlyph: glyph).applying(transform.concatenating(place)))
            }
            pen += source.advance(ofGlyph: glyph) * scale
        }
        let characters: [Substring] =
            font.mayHoldEmoji(run.text) ? run.text.map { Substring(String($0)) } : [Substring(run.text)]
        for piece in characters {
            // An emoji the colour emoji font has is its pictures, at the pen, one per glyph.
            if piece.count == 1, let character = piece.first, let emoji = font.emoji(for: character),
                let colorFont = font.colorEmoji?.font
            {
                var x = pen
                for glyph in emoji.glyphs {
                    if let bitmap = colorFont.bitmap(ofGlyph: glyph) { emojiPictures.append((bitmap, glyph, x)) }
                    x += colorFont.advance(ofGlyph: glyph) * run.size
                }
                pen += emoji.advance * run.size
                previous = nil
                continue
            }
            for scalar in piece.unicodeScalars { drawScalar(scalar) }
        }
        if simple {
            fillGlyphs(placed, color)
        } else {
            fill(outline.flattened(tolerance: 0.08), color)
        }
        if let colorFont = font.colorEmoji?.font {
            for (bitmap, glyph, x) in emojiPictures {
                drawEmoji(
                    bitmap, glyph: glyph, font: colorFont, at: Point(x, run.origin.y), size: run.size,
                    transform: transform, opacity: opacity)
            }
        }
        if run.isUnderlined {
            let thickness = max(0.5, run.size / 14)
            let line = Rect(
                x: run.origin.x, y: run.origin.y + run.size * 0.12, width: pen - run.origin.x, height: thickness)
            fill(Path.rect(line).applying(transform).flattened(), color)
        }
    }

    /// An emoji's picture, its top left corner at its bearings from the pen on the baseline.
    private func drawEmoji(
        _ bitmap: ColorEmojiFont.Bitmap, glyph: UInt16, font: ColorEmojiFont, at origin: Point, size: Double,
        transform: Transform, opacity: Double
    ) {
        let key = "emoji:\(glyph)"
        if pictures[key] == nil { pictures[key] = try? RasterImage(decoding: bitmap.png) }
        guard let picture = pictures[key] ?? nil else { return }
        let scale = size / font.pixelsPerEm
        let frame = Rect(
            x: origin.x + bitmap.bearingX * scale, y: origin.y - bitmap.bearingY * scale,
            width: Double(picture.width) * scale, height: Double(picture.height) * scale)
        let toPixels = transform.concatenating(
            Transform(a: scale, b: 0, c: 0, d: scale, tx: frame.minX, ty: frame.minY))
        guard let paint = PicturePaint(picture, toPixels: toPixels, opacity: opacity) else { return }
        fill(Path.rect(frame).applying(transform).flattened(tolerance: 0.1), paint)
    }

    private func cachedGlyph(
        _ font: TrueTypeFont, _ face: FontFace, _ glyph: UInt16, pixelSize: Double, slant: Double, isFallback: Bool
    ) -> GlyphOutline {
        let key = GlyphKey(
            face: face, isFallback: isFallback, glyph: glyph, size: Int(saturating: (pixelSize * 64).rounded()))
        if let cached = glyphs[key] { return cached }
        let scale = pixelSize / font.unitsPerEm
        let polylines = font.outline(ofGlyph: glyph)
            .applying(Transform(a: scale, b: 0, c: -slant * scale, d: -scale, tx: 0, ty: 0))
            .flattened(tolerance: 0.08)
        var outline = GlyphOutline(
            polylines: polylines, minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for polyline in polylines {
            for point in polyline.points {
                outline.minX = min(outline.minX, point.x)
                outline.maxX = max(outline.maxX, point.x)
                outline.minY = min(outline.minY, point.y)
                outline.maxY = max(outline.maxY, point.y)
            }
        }
        glyphs[key] = outline
        return outline
    }

    private func fillGlyphs(_ placed: [(GlyphOutline, Point)], _ color: DrawingColor) {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for (glyph, origin) in placed where !glyph.polylines.isEmpty {
            minX = min(minX, origin.x + glyph.minX)
            maxX = max(maxX, origin.x + glyph.maxX)
            minY = min(minY, origin.y + glyph.minY)
            maxY = max(maxY, origin.y + glyph.maxY)
        }
        guard let bounds = pixelBounds(minX, minY, maxX, maxY, within: clips[clips.count - 1]) else { return }
        raster.begin(left: bounds.left, top: bounds.top, right: bounds.right, bottom: bounds.bottom)
        for (glyph, origin) in placed
        where origin.x + glyph.maxX >= Double(bounds.left) && origin.x + glyph.minX <= Double(bounds.right) {
            raster.add(glyph.polylines, dx: origin.x, dy: origin.y)
        }
        composite(color)
    }

    // MARK: Filling and clipping

    private func pixelBounds(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, within clip: Clip) -> (
        left: Int, top: Int, right: Int, bottom: Int
    )? {
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let left = max(clip.left, Int(saturating: max(-1, minX).rounded(.down)))
        let right = min(clip.right, Int(saturating: min(Double(width), maxX).rounded(.up)) + 1)
        let top = max(clip.top, Int(saturating: max(-1, minY).rounded(.down)))
        let bottom = min(clip.bottom, Int(saturating: min(Double(height), maxY).rounded(.up)) + 1)
        return left < right && top < bottom ? (left, top, right, bottom) : nil
    }

    private func bounds(of polylines: [Polyline], within clip: Clip) -> (left: Int, top: Int, right: Int, bottom: Int)?
    {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for polyline in polylines {
            for point in polyline.points {
                minX = min(minX, point.x)
                maxX = max(maxX, point.x)
                minY = min(minY, point.y)
                maxY = max(maxY, point.y)
            }
        }
        return pixelBounds(minX, minY, maxX, maxY, within: clip)
    }

    private func fill(_ polylines: [Polyline], _ color: DrawingColor) {
        guard color.opacity > 0 else { return }
        fill(polylines, SolidPaint(color))
    }

    private func fill<P: Paint>(_ polylines: [Polyline], _ paint: P) {
        guard let bounds = bounds(of: polylines, within: clips[clips.count - 1]) else { return }
        raster.begin(left: bounds.left, top: bounds.top, right: bounds.right, bottom: bounds.bottom)
        raster.add(polylines)
        composite(paint)
    }

    private func composite(_ color: DrawingColor) { composite(SolidPaint(color)) }

    /// Paints the raster's block with `paint`, through the current clip: each row's coverage is summed
    /// from the cells, masked and blended (source over) in one pass.
    private func composite<P: Paint>(_ paint: P) {
        let clip = clips[clips.count - 1]
        guard let mask = clip.mask else { return composite(paint, clip: clip, mask: nil) }
        mask.withUnsafeBufferPointer { composite(paint, clip: clip, mask: $0.baseAddress) }
    }

    private func composite<P: Paint>(_ paint: P, clip: Clip, mask: UnsafePointer<Float>?) {
        let left = raster.left
        let right = raster.right
        for y in raster.top..<raster.bottom {
            let cells = raster.row(y)
            let maskRow = mask.map { $0 + (y - clip.top) * (clip.right - clip.left) - clip.left }
            var pixel = pixels + (y * width + left) * 4
            var sum: Float = 0
            for x in left..<right {
                sum += cells[x]
                cells[x] = 0
                var cover = min(1, abs(sum))
                if let maskRow { cover *= maskRow[x] }
                if cover > 0.002 {
                    let source = paint.color(x: x, y: y) * (cover >= 0.999 ? 1 : cover)
                    let keep = 1 - source[3]
                    pixel[0] = source[0] + pixel[0] * keep
                    pixel[1] = source[1] + pixel[1] * keep
                    pixel[2] = source[2] + pixel[2] * keep
                    pixel[3] = source[3] + pixel[3] * keep
                }
                pixel += 4
            }
            cells[right] = 0
            cells[right + 1] = 0
        }
    }

    /// The pixel block of a clip that is a whole-pixel axis-aligned rectangle, which needs no mask.
    private func pixelRectangle(_ polylines: [Polyline]) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        guard polylines.count == 1 else { return nil }
        var points = polylines[0].points
        if points.count == 5, points[0] == points[4] { points.removeLast() }
        guard points.count == 4, points.allSatisfy({ $0.x == $0.x.rounded() && $0.y == $0.y.rounded() }) else {
            return nil
        }
        let xs = Set(points.map(\.x))
        let ys = Set(points.map(\.y))
        guard xs.count == 2, ys.count == 2, let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(),
            let maxY = ys.max(),
            (0..<4).allSatisfy({ points[$0].x == points[($0 + 1) % 4].x || points[$0].y == points[($0 + 1) % 4].y }),
            abs(minX) < 1e9, abs(maxX) < 1e9, abs(minY) < 1e9, abs(maxY) < 1e9
        else { return nil }
        return (Int(saturating: minX), Int(saturating: minY), Int(saturating: maxX), Int(saturating: maxY))
    }

    private func pushClip(_ polylines: [Polyline]) {
        let current = clips[clips.count - 1]
        if current.mask == nil, let box = pixelRectangle(polylines) {
            let left = max(current.left, box.left)
            let top = max(current.top, box.top)
            let right = min(current.right, box.right)
            let bottom = min(current.bottom, box.bottom)
            clips.append(
                left < right && top < bottom
                    ? Clip(left: left, top: top, right: right, bottom: bottom, mask: nil) : .empty)
            return
        }
        guard let bounds = bounds(of: polylines, within: current) else {
            clips.append(.empty)
            return
        }
        raster.begin(left: bounds.left, top: bounds.top, right: bounds.right, bottom: bounds.bottom)
        raster.add(polylines)
        let span = bounds.right - bounds.left
        // Each mask row is summed from the raster's cells (returning them to zero) and, inside an
        // outer masked clip, multiplied by that clip's mask, in one pass.
        let mask = [Float](unsafeUninitializedCapacity: span * (bounds.bottom - bounds.top)) { buffer, count in
            for y in bounds.top..<bounds.bottom {
                let cells = raster.row(y)
                let out = buffer.baseAddress! + (y - bounds.top) * span - bounds.left
                let outerRow = current.mask.map { _ in (y - current.top) * (current.right - current.left) - current.left
                }
                var sum: Float = 0
                for x in bounds.left..<bounds.right {
                    sum += cells[x]
                    cells[x] = 0
                    var coverage = min(1, abs(sum))
                    if let outerRow, let outer = current.mask { coverage *= outer[outerRow + x] }
                    out[x] = coverage
                }
                cells[bounds.right] = 0
                cells[bounds.right + 1] = 0
            }
            count = span * (bounds.bottom - bounds.top)
        }
        clips.append(Clip(left: bounds.left, top: bounds.top, right: bounds.right, bottom: bounds.bottom, mask: mask))
    }
}
