import ARVisGraphics
import ARVisSpec
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

/// `audio`: the title above a player bar (a real `<audio>` in HTML).
struct AudioNode: LayoutNode {
    let audio: Component.Audio
    private let barHeight = 44.0

    private func title(_ context: RenderContext) -> TextBlock {
        TextBlock(
            plain: audio.title ?? Placeholder.fileName(audio.url),
            style: TextStyle(size: 15, weight: .semibold, lineLimit: 1))
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let width = min(proposal.width ?? 360, 480)
        return Size(
            width: width,
            height: title(context).size(for: Proposal(width: width, height: nil), in: context).height + 6 + barHeight)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let heading = title(context)
        let titleHeight = heading.size(for: Proposal(width: rect.width, height: nil), in: context).height
        let bar = Rect(x: rect.minX, y: rect.minY + titleHeight + 6, width: rect.width, height: barHeight)
        let chrome = Placeholder.playerBar(in: bar, context: context)
        return heading.draw(
            in: Rect(x: rect.minX, y: rect.minY, width: rect.width, height: titleHeight), context: context)
            + [.media(MediaItem(kind: .audio, frame: bar, url: audio.url, fallback: chrome))]
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
        chrome += Placeholder.playButton(
            center: Point(rect.midX, rect.midY), radius: min(32, rect.height / 4), youTube: youTubeID != nil)
        let caption = TextBlock(
            plain: youTubeID != nil ? "YouTube" : Placeholder.fileName(video.url),
            style: TextStyle(size: 13, color: .white, lineLimit: 1))
        let captionRect = Rect(x: rect.minX + 12, y: rect.maxY - 28, width: max(0, rect.width - 24), height: 20)
        chrome += caption.draw(in: captionRect, context: context)
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
