import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation

/// `image`: the downloaded picture as a data URI, or a neutral placeholder of the same size with the file's name.
struct ImageNode: LayoutNode {
    let image: Component.Image

    private func aspectRatio(_ context: RenderContext) -> Double {
        if let size = context.options.resources[image.url]?.pixelSize, size.height > 0 {
            return size.width / size.height
        }
        return 4.0 / 3.0
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let aspect = aspectRatio(context)
        switch (image.width, image.height) {
        case (let width?, let height?): return Size(width: width, height: height)
        case (let width?, nil): return Size(width: width, height: width / aspect)
        case (nil, let height?): return Size(width: height * aspect, height: height)
        case (nil, nil):
            let width = proposal.width ?? 320
            let height = width / aspect
            if let limit = proposal.height, height > limit, image.contentMode != .fill {
                return Size(width: limit * aspect, height: limit)
            }
            return Size(width: width, height: height)
        }
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let fallback = Placeholder.picture(in: rect, caption: Placeholder.fileName(image.url), context: context)
        let source = context.options.resources[image.url].map(Placeholder.dataURI)
        let item = Element.image(
            ImageItem(
                frame: rect, source: source, fills: image.contentMode == .fill, fallback: fallback, name: image.url))
        // SwiftUI's Circle fits its frame: the diameter is the shorter side, centred.
        let side = min(rect.width, rect.height)
        let circle = Rect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side)
        let clip: Path = image.clipToCircle == true ? .ellipse(in: circle) : .rect(rect)
        return [.group(Group([item], clip: clip, label: Placeholder.fileName(image.url)))]
    }
}

/// `sfSymbol`: the symbol drawn as our own vector shape (``SymbolArt``), or, for a name not in its
/// table, a visible stand-in: a rounded outline holding the name's initial.
struct SymbolNode: LayoutNode {
    let symbol: Component.SFSymbol

    private var pointSize: Double { symbol.size ?? Theme.bodySize }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        Size(width: pointSize * 1.2, height: pointSize * 1.2)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let side = min(rect.width, rect.height)
        let square = Rect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side)
        let elements = SymbolArt.draw(symbol.name, in: square, ink: Theme.primary) ?? fallback(in: rect, context)
        return [.group(Group(elements, label: symbol.name))]
    }

    private func fallback(in rect: Rect, _ context: RenderContext) -> [Element] {
        let font = context.fonts.font(for: .regular)
        let initial = String(symbol.name.prefix(1)).uppercased()
        let width = font.width(of: initial, size: pointSize * 0.6)
        return [
            .shape(
                Shape(
                    path: .roundedRect(rect.inset(top: 1, left: 1, bottom: 1, right: 1), radius: pointSize * 0.25),
                    stroke: Stroke(color: Theme.placeholderInk, width: max(1, pointSize / 17)))),
            .text(
                TextRun(
                    initial, at: Point(rect.midX - width / 2, rect.midY + pointSize * 0.22), size: pointSize * 0.6,
                    color: Theme.placeholderInk)),
        ]
    }
}

/// `audio`: iARVis's player card — a white card (12 pt corners, soft shadow, 16 pt inside and out)
/// with the title centred in 18 pt medium rounded type over a red-tinted slider, the times in 14 pt
/// monospaced type and a `play.circle` between them (a real `<audio>` in HTML).
struct AudioNode: LayoutNode {
    let audio: Component.Audio
    private let inset = 16.0
    private let sliderHeight = 28.0, rowHeight = 30.0, spacing = 4.0

    private func title(_ context: RenderContext) -> TextBlock {
        TextBlock(
            plain: audio.title ?? Placeholder.fileName(audio.url),
            style: TextStyle(size: 18, weight: .medium, design: .rounded, alignment: .center))
    }

    /// The card's content width: the title's, and the slider's 32 pt more (as iARVis sizes it).
    private func contentWidth(_ proposal: Proposal, _ context: RenderContext) -> Double {
        let room = max(40, (proposal.width ?? 480) - 4 * inset)
        return min(room, title(context).layout(width: max(8, room - 32), context).width + 32)
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let width = contentWidth(proposal, context)
        let titleHeight = title(context).size(for: Proposal(width: width, height: nil), in: context).height
        return Size(
            width: width + 4 * inset, height: titleHeight + spacing + sliderHeight + 2 + rowHeight + 4 * inset)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let card = rect.inset(top: inset, left: inset, bottom: inset, right: inset)
        let content = card.inset(top: inset, left: inset, bottom: inset, right: inset)
        let heading = title(context)
        let titleHeight = heading.size(for: Proposal(width: content.width, height: nil), in: context).height
        let player = Rect(
            x: content.minX, y: content.minY + titleHeight + spacing, width: content.width,
            height: sliderHeight + 2 + rowHeight)
        var elements = Placeholder.softShadow(radius: 10) {
            .roundedRect(card.inset(top: -$0, left: -$0, bottom: -$0, right: -$0), radius: 12 + $0)
        }
        elements.append(.shape(Shape(path: .roundedRect(card, radius: 12), fill: .white)))
        elements += heading.draw(
            in: Rect(x: content.minX, y: content.minY, width: content.width, height: titleHeight), context: context)
        elements.append(
            .media(MediaItem(kind: .audio, frame: player, url: audio.url, fallback: controls(in: player, context))))
        return elements
    }

    /// The slider (at its start) and the row of times around the play button.
    private func controls(in rect: Rect, _ context: RenderContext) -> [Element] {
        let track = Rect(x: rect.minX, y: rect.minY + sliderHeight / 2 - 2, width: rect.width, height: 4)
        let thumb = Point(rect.minX + sliderHeight / 2, rect.minY + sliderHeight / 2)
        var elements: [Element] = [
            .shape(
                Shape(
                    path: .roundedRect(track, radius: 2),
                    fill: DrawingColor(red: 120, green: 120, blue: 128, opacity: 0.2))),
            .shape(
                Shape(
                    path: .circle(center: Point(thumb.x, thumb.y + 1), radius: 14.5),
                    fill: DrawingColor(red: 0, green: 0, blue: 0, opacity: 0.1))),
            .shape(Shape(path: .circle(center: thumb, radius: 14), fill: .white)),
        ]
        let row = Rect(x: rect.minX, y: rect.minY + sliderHeight + 2, width: rect.width, height: rowHeight)
        let time = TextStyle(size: 14, weight: .medium, design: .monospaced, lineLimit: 1)
        var trailing = time
        trailing.alignment = .trailing
        elements += TextBlock(plain: "00:00", style: time).draw(
            in: Rect(x: row.minX, y: row.midY - 9, width: row.width / 2, height: 18), context: context)
        elements += TextBlock(plain: "--:--", style: trailing).draw(
            in: Rect(x: row.midX, y: row.midY - 9, width: row.width / 2, height: 18), context: context)
        let button = Rect(x: row.midX - 18, y: row.midY - 18, width: 36, height: 36)
        elements += SymbolArt.draw("play.circle", in: button, ink: Theme.primary.fading(0.7)) ?? []
        return elements
    }
}

/// `video`: a poster frame with a play button; YouTube links show the video's thumbnail and open the video.
struct VideoNode: LayoutNode {
    let video: Component.Video

    var youTubeID: String? { Self.youTubeID(video.url) }

    static func youTubeID(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else { return nil }
        if host.hasSuffix("youtu.be") { return components.path.split(separator: "/").first.map(String.init) }
        guard host.hasSuffix("youtube.com") || host.hasSuffix("youtube-nocookie.com") else { return nil }
        if let value = components.queryItems?.first(where: { $0.name == "v" })?.value { return value }
        let parts = components.path.split(separator: "/")
        if parts.count >= 2, ["embed", "shorts", "v", "live"].contains(parts[0]) { return String(parts[1]) }
        return nil
    }

    /// The thumbnail YouTube serves for a video.
    static func posterURL(_ id: String) -> String { "https://img.youtube.com/vi/\(id)/hqdefault.jpg" }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        switch (video.width, video.height) {
        case (let width?, let height?): Size(width: width, height: height)
        case (let width?, nil): Size(width: width, height: width * 9 / 16)
        case (nil, let height?): Size(width: height * 16 / 9, height: height)
        case (nil, nil):
            Size(width: min(proposal.width ?? 480, 640), height: min(proposal.width ?? 480, 640) * 9 / 16)
        }
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let poster = youTubeID.map(Self.posterURL)
        var chrome: [Element] = [
            .shape(Shape(path: .roundedRect(rect, radius: 12), fill: DrawingColor(red: 28, green: 28, blue: 30)))
        ]
        if let poster, let resource = context.options.resources[poster] {
            chrome.append(
                .group(
                    Group(
                        [
                            .image(
                                ImageItem(
                                    frame: rect, source: Placeholder.dataURI(resource), fills: true, fallback: [],
                                    name: poster))
                        ],
                        clip: .roundedRect(rect, radius: 12))))
        }
        if youTubeID != nil {
            // iARVis's YouTube thumbnail: a 50 pt dark circle with `play.fill` over the picture.
            let center = Point(rect.midX, rect.midY)
            chrome.append(
                .shape(
                    Shape(
                        path: .circle(center: center, radius: 25),
                        fill: DrawingColor(red: 0, green: 0, blue: 0, opacity: 0.8))))
            chrome +=
                SymbolArt.draw(
                    "play.fill", in: Rect(x: center.x - 12, y: center.y - 12, width: 24, height: 24), ink: .white) ?? []
        } else {
            chrome += Placeholder.playButton(center: Point(rect.midX, rect.midY), radius: min(32, rect.height / 4))
            let caption = TextBlock(
                plain: Placeholder.fileName(video.url), style: TextStyle(size: 13, color: .white, lineLimit: 1))
            let captionRect = Rect(x: rect.minX + 12, y: rect.maxY - 28, width: max(0, rect.width - 24), height: 20)
            chrome += caption.draw(in: captionRect, context: context)
        }
        if youTubeID != nil {
            return [.group(Group(chrome, link: LinkPolicy.navigable(video.url), label: "YouTube video \(video.url)"))]
        }
        return [.media(MediaItem(kind: .video, frame: rect, url: video.url, poster: nil, fallback: chrome))]
    }
}

/// `link`: its title (or URL) in the accent colour, opening the URL.
struct LinkNode: LayoutNode {
    let block: TextBlock

    init(_ link: Component.Link) {
        block = TextBlock(spans: [StyledSpan(text: link.title ?? link.url, link: link.url)], style: TextStyle())
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size { block.size(for: proposal, in: context) }
    func draw(in rect: Rect, context: RenderContext) -> [Element] { block.draw(in: rect, context: context) }
}
