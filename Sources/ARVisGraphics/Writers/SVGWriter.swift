import ARVisSupport

/// Writes a ``Drawing`` as SVG 1.1 text: deterministic, with a `viewBox`, `<title>`/`<desc>`, text as
/// `<text>` and links as `<a>`.
///
/// Static output shows what a still picture shows (the selected segment, no tooltips). Interactive
/// output, used inside HTML pages, keeps every segment and tooltip with `data-` attributes for the
/// page's script and puts real `<audio>`/`<video>` elements in `<foreignObject>`s.
public struct SVGWriter: Sendable {
    /// Whether to write the interactive form.
    public var isInteractive: Bool
    /// Pixel width and height attributes; the default is the drawing's extent.
    public var scale: Double
    /// Put before every id the SVG defines, so several drawings can share one HTML page.
    public var idPrefix: String

    /// Creates a writer.
    public init(interactive: Bool = false, scale: Double = 1, idPrefix: String = "") {
        self.isInteractive = interactive
        self.scale = scale
        self.idPrefix = idPrefix
    }

    /// The SVG document for `drawing`.
    public func write(_ drawing: Drawing) -> String {
        var output = SVGOutput(interactive: isInteractive, idPrefix: idPrefix)
        let width = drawing.extent.width
        let height = drawing.extent.height
        output.text += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
        output.text += " width=\"\(number(width * scale))\" height=\"\(number(height * scale))\""
        output.text += " viewBox=\"0 0 \(number(width)) \(number(height))\" role=\"img\">\n"
        if let title = drawing.title { output.text += "<title>\(escape(title))</title>\n" }
        if let summary = drawing.summary { output.text += "<desc>\(escape(summary))</desc>\n" }
        output.text +=
            "<style>.s{font-family:\(FontFace.Family.sans.cssFamily)}.m{font-family:\(FontFace.Family.mono.cssFamily)}.r{font-family:\(FontFace.Family.serif.cssFamily)}text{white-space:pre}</style>\n"
        output.write(drawing.elements, transform: .identity)
        output.text += output.deferred
        output.text += "</svg>\n"
        return output.text
    }
}

/// The text being written, and the tooltips held back to be painted last.
private struct SVGOutput {
    let interactive: Bool
    let idPrefix: String
    var text = ""
    var deferred = ""
    var clipCount = 0

    init(interactive: Bool, idPrefix: String) {
        self.interactive = interactive
        self.idPrefix = idPrefix
    }

    mutating func write(_ elements: [Element], transform: Transform) {
        for element in elements { write(element, transform: transform) }
    }

    mutating func write(_ element: Element, transform: Transform) {
        switch element {
        case .shape(let shape): write(shape)
        case .text(let run): write(run)
        case .image(let image): write(image, transform: transform)
        case .media(let media): write(media, transform: transform)
        case .group(let group): write(group, transform: transform)
        }
    }

    mutating func write(_ shape: Shape) {
        text += "<path d=\"\(pathData(shape.path))\""
        if let fill = shape.fill {
            text += " fill=\"\(fill.hex)\""
            if fill.opacity < 1 { text += " fill-opacity=\"\(number(fill.opacity, digits: 3))\"" }
        } else {
            text += " fill=\"none\""
        }
        if let stroke = shape.stroke {
            text += " stroke=\"\(stroke.color.hex)\" stroke-width=\"\(number(stroke.width))\""
            if stroke.color.opacity < 1 { text += " stroke-opacity=\"\(number(stroke.color.opacity, digits: 3))\"" }
            if !stroke.dash.isEmpty {
                text += " stroke-dasharray=\"\(stroke.dash.map { number($0) }.joined(separator: " "))\""
            }
            if stroke.isRound { text += " stroke-linecap=\"round\" stroke-linejoin=\"round\"" }
        }
        text += "/>\n"
    }

    mutating func write(_ run: TextRun) {
        let family =
            switch run.face.family {
            case .sans: "s"
            case .mono: "m"
            case .serif: "r"
            }
        text +=
            "<text class=\"\(family)\" x=\"\(number(run.origin.x))\" y=\"\(number(run.origin.y))\" font-size=\"\(number(run.size))\""
        if run.face.weight != .regular { text += " font-weight=\"\(run.face.weight.rawValue)\"" }
        if run.face.isItalic { text += " font-style=\"italic\"" }
        if run.color != .black {
            text += " fill=\"\(run.color.hex)\""
            if run.color.opacity < 1 { text += " fill-opacity=\"\(number(run.color.opacity, digits: 3))\"" }
        }
        if run.isUnderlined { text += " text-decoration=\"underline\"" }
        text += ">\(escape(run.text))</text>\n"
    }

    mutating func write(_ image: ImageItem, transform: Transform) {
        guard let source = image.source, LinkPolicy.isLoadable(source) else {
            return write(image.fallback, transform: transform)
        }
        let frame = image.frame
        text +=
            "<image x=\"\(number(frame.x))\" y=\"\(number(frame.y))\" width=\"\(number(frame.width))\" height=\"\(number(frame.height))\""
        text += " preserveAspectRatio=\"xMidYMid \(image.fills ? "slice" : "meet")\" href=\"\(escape(source))\"/>\n"
    }

    mutating func write(_ media: MediaItem, transform: Transform) {
        guard interactive, !media.isEmbeddedPage, LinkPolicy.isLoadable(media.url) else {
            return write(media.fallback, transform: transform)
        }
        let frame = media.frame
        text +=
            "<foreignObject x=\"\(number(frame.x))\" y=\"\(number(frame.y))\" width=\"\(number(frame.width))\" height=\"\(number(frame.height))\">"
        text +=
            "<\(media.kind.rawValue) xmlns=\"http://www.w3.org/1999/xhtml\" controls=\"controls\" preload=\"none\" src=\"\(escape(media.url))\""
        if let poster = media.poster, LinkPolicy.isLoadable(poster) { text += " poster=\"\(escape(poster))\"" }
        text += " style=\"width:100%;height:100%\"></\(media.kind.rawValue)></foreignObject>\n"
    }

    mutating func write(_ group: Group, transform: Transform) {
        if !interactive && !group.isVisibleStatically { return }
        if interactive, case .tooltip(let id) = group.role {
            // Painted after everything else so it sits on top, in the coordinates it was given.
            var nested = SVGOutput(interactive: true, idPrefix: idPrefix)
            nested.clipCount = clipCount
            nested.text =
                "<g id=\"\(escape(id))\" class=\"arvis-tooltip\" visibility=\"hidden\" pointer-events=\"none\" transform=\"\(matrix(transform.concatenating(group.transform)))\">\n"
            nested.write(group.elements, transform: transform.concatenating(group.transform))
            nested.text += "</g>\n"
            clipCount = nested.clipCount
            deferred += nested.text + nested.deferred
            return
        }
        var clipID: String?
        if let clip = group.clip {
            clipCount += 1
            clipID = "\(idPrefix)clip\(clipCount)"
            text += "<clipPath id=\"\(clipID!)\"><path d=\"\(pathData(clip))\"/></clipPath>\n"
        }
        // A link to an overlay (`#arvis-open-1`) works only where the overlay is written: interactive HTML.
        let link = LinkPolicy.navigable(group.link).flatMap { $0.hasPrefix("#") && !interactive ? nil : $0 }
        if let link {
            text +=
                link.hasPrefix("#")
                ? "<a href=\"\(escape(link))\" class=\"arvis-open\" role=\"button\">\n"
                : "<a href=\"\(escape(link))\" target=\"_blank\" rel=\"noopener noreferrer\">\n"
        }
        text += "<g"
        if group.transform != .identity { text += " transform=\"\(matrix(group.transform))\"" }
        if group.opacity < 1 { text += " opacity=\"\(number(group.opacity, digits: 3))\"" }
        // The clip is in the group's own coordinates, which is how SVG reads a clip on a transformed element.
        if let clipID { text += " clip-path=\"url(#\(clipID))\"" }
        if interactive { writeRoleAttributes(group.role) }
        text += ">\n"
        if let label = group.label { text += "<title>\(escape(label))</title>\n" }
        let inner = transform.concatenating(group.transform)
        write(group.elements, transform: inner)
        text += "</g>\n"
        if link != nil { text += "</a>\n" }
    }

    mutating func writeRoleAttributes(_ role: Group.Role?) {
        switch role {
        case .tooltipTrigger(let id): text += " class=\"arvis-hover\" data-tooltip=\"\(escape(id))\""
        case .segmentButton(let control, let index):
            text += " class=\"arvis-segment-button\" data-control=\"\(escape(control))\" data-index=\"\(index)\""
        case .segment(let control, let index, let selected):
            text += " class=\"arvis-segment\" data-control=\"\(escape(control))\" data-index=\"\(index)\""
            if !selected { text += " display=\"none\"" }
        case .tooltip, nil: break
        }
    }
}

/// `d` attribute text for a path.
func pathData(_ path: Path) -> String {
    var text = ""
    for element in path.elements {
        switch element {
        case .move(let p): text += "M\(number(p.x)) \(number(p.y))"
        case .line(let p): text += "L\(number(p.x)) \(number(p.y))"
        case .quad(let c, let p): text += "Q\(number(c.x)) \(number(c.y)) \(number(p.x)) \(number(p.y))"
        case .cubic(let c1, let c2, let p):
            text += "C\(number(c1.x)) \(number(c1.y)) \(number(c2.x)) \(number(c2.y)) \(number(p.x)) \(number(p.y))"
        case .close: text += "Z"
        }
    }
    return text
}

func matrix(_ t: Transform) -> String {
    "matrix(\(number(t.a, digits: 4)) \(number(t.b, digits: 4)) \(number(t.c, digits: 4)) \(number(t.d, digits: 4)) \(number(t.tx)) \(number(t.ty)))"
}

/// A number with at most `digits` decimals and no trailing zeros: the same text on every machine.
func number(_ value: Double, digits: Int = 2) -> String {
    guard value.isFinite else { return "0" }
    let factor = digits == 2 ? 100.0 : digits == 3 ? 1000.0 : 10000.0
    guard (abs(value) * factor).rounded() < 9e15 else { return value < 0 ? "-9e15" : "9e15" }
    return fixedDecimal(value, digits: digits) ?? "0"
}

/// `value` with at most `digits` (0–9) decimals and no trailing zeros, by integer arithmetic — the
/// same text on every machine, and much cheaper than `String(format:)`; nil when `value` is not finite
/// or too large for 64-bit arithmetic at that precision.
package func fixedDecimal(_ value: Double, digits: Int) -> String? {
    let places = min(max(digits, 0), 9)
    var unit: UInt64 = 1
    for _ in 0..<places { unit *= 10 }
    let scaled = (abs(value) * Double(unit)).rounded()
    guard value.isFinite, scaled < 9e18 else { return nil }
    let units = UInt64(scaled)
    let integer = (units == 0 || value > 0 ? "" : "-") + String(units / unit)
    var fraction = units % unit
    guard fraction > 0 else { return integer }
    var width = places
    while fraction % 10 == 0 {
        fraction /= 10
        width -= 1
    }
    let fractionText = String(fraction)
    return integer + "." + String(repeating: "0", count: width - fractionText.count) + fractionText
}

/// Text escaped for XML content and attribute values.
func escape(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 || $0 < 32 }) else {
        return text
    }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        case "\t", "\n": result += " "
        default:
            if scalar.value < 32 { continue }
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

extension String {
    /// The text escaped for XML and HTML content and attribute values (`&`, `<`, `>`, quotes;
    /// control characters dropped, tabs and newlines as spaces).
    public var xmlEscaped: String { escape(self) }
}
