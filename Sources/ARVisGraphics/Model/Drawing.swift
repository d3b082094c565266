public import ARVisSupport

/// A picture: a tree of shapes, text, images and groups on a canvas of a given extent.
///
/// Drawings know nothing about specs; ``SVGWriter``, ``PNGWriter`` and ``HTMLWriter`` turn them into files.
///
/// ```swift
/// var drawing = Drawing(extent: Size(width: 200, height: 100), title: "Hello")
/// drawing.elements.append(.shape(Shape(path: .roundedRect(Rect(x: 0, y: 0, width: 200, height: 100), radius: 12), fill: .white)))
/// let svg = SVGWriter().write(drawing)
/// ```
public struct Drawing: Sendable, Hashable {
    /// The canvas size in drawing units.
    public var extent: Size
    /// A short accessible name, written as SVG `<title>`.
    public var title: String?
    /// A longer accessible description, written as SVG `<desc>`.
    public var summary: String?
    /// The content, painted in order.
    public var elements: [Element]
    /// Drawings its links open in place (`#ID` links), which interactive HTML shows over it.
    public var overlays: [Overlay]

    /// Creates a drawing.
    public init(
        extent: Size, title: String? = nil, summary: String? = nil, elements: [Element] = [], overlays: [Overlay] = []
    ) {
        self.extent = extent
        self.title = title
        self.summary = summary
        self.elements = elements
        self.overlays = overlays
    }
}

/// A drawing a link of another opens in place: the link's target is `#` and its id.
public struct Overlay: Sendable, Hashable {
    /// The id links name (`arvis-open-1` …), unique within its drawing.
    public var id: String
    /// What it shows.
    public var drawing: Drawing
    /// The name of the child widget iARVis adds for the link in AR, after its parent's id and a
    /// `-` (`arvis scene --open-links` names it so), or `nil`.
    public var child: String?

    /// Creates an overlay.
    public init(id: String, drawing: Drawing, child: String? = nil) {
        self.id = id
        self.drawing = drawing
        self.child = child
    }
}

/// One item of a drawing.
public indirect enum Element: Sendable, Hashable {
    /// A filled or stroked outline.
    case shape(Shape)
    /// A line of text.
    case text(TextRun)
    /// A raster image.
    case image(ImageItem)
    /// An audio or video player.
    case media(MediaItem)
    /// Elements sharing a transform, clip, opacity, link or role.
    case group(Group)
}

/// A filled and/or stroked path.
public struct Shape: Sendable, Hashable {
    /// The outline.
    public var path: Path
    /// The fill colour, or `nil` for none.
    public var fill: DrawingColor?
    /// The outline stroke, or `nil` for none.
    public var stroke: Stroke?

    /// Creates a shape; give a fill, a stroke or both.
    public init(path: Path, fill: DrawingColor? = nil, stroke: Stroke? = nil) {
        self.path = path
        self.fill = fill
        self.stroke = stroke
    }
}

/// How a path's outline is drawn.
public struct Stroke: Sendable, Hashable {
    /// The colour.
    public var color: DrawingColor
    /// The line width in drawing units.
    public var width: Double
    /// Dash and gap lengths, or empty for a solid line.
    public var dash: [Double]
    /// Round caps and joins (otherwise butt caps and miter-like joins).
    public var isRound: Bool

    /// Creates a stroke.
    public init(color: DrawingColor, width: Double, dash: [Double] = [], isRound: Bool = false) {
        self.color = color
        self.width = width
        self.dash = dash
        self.isRound = isRound
    }
}

/// A single line of text in one face, size and colour, starting at a baseline point.
public struct TextRun: Sendable, Hashable {
    /// The characters, drawn on one line.
    public var text: String
    /// The left end of the baseline.
    public var origin: Point
    /// The typeface.
    public var face: FontFace
    /// The font size in drawing units.
    public var size: Double
    /// The colour.
    public var color: DrawingColor
    /// Whether a line is drawn under the text.
    public var isUnderlined: Bool

    /// Creates a text run.
    public init(
        _ text: String, at origin: Point, face: FontFace = .regular, size: Double, color: DrawingColor = .black,
        isUnderlined: Bool = false
    ) {
        self.text = text
        self.origin = origin
        self.face = face
        self.size = size
        self.color = color
        self.isUnderlined = isUnderlined
    }
}

/// A raster image placed in a frame.
public struct ImageItem: Sendable, Hashable {
    /// Where it is drawn.
    public var frame: Rect
    /// A `data:` URI or a URL, or `nil` when only the fallback can be shown.
    public var source: String?
    /// Fill the frame and crop (otherwise fit inside it).
    public var fills: Bool
    /// What to draw where the image itself cannot be shown (no source, or a picture PNG output cannot decode).
    public var fallback: [Element]
    /// What the picture is called in messages: its URL as the spec gives it.
    public var name: String?

    /// Creates an image item.
    public init(frame: Rect, source: String?, fills: Bool, fallback: [Element], name: String? = nil) {
        self.frame = frame
        self.source = source
        self.fills = fills
        self.fallback = fallback
        self.name = name
    }
}

/// An audio or video player: a real `<audio>`/`<video>` in HTML, its drawn chrome elsewhere.
public struct MediaItem: Sendable, Hashable {
    /// Audio or video.
    public enum Kind: String, Sendable, Hashable {
        /// An `<audio>` player.
        case audio
        /// A `<video>` player.
        case video
    }

    /// Audio or video.
    public var kind: Kind
    /// Where it is drawn.
    public var frame: Rect
    /// The media file (or page) to play.
    public var url: String
    /// A poster image URL for video.
    public var poster: String?
    /// Whether the URL is a page to embed (such as a YouTube player) rather than a media file.
    public var isEmbeddedPage: Bool
    /// The drawn player chrome, used by SVG and PNG output.
    public var fallback: [Element]

    /// Creates a media item.
    public init(
        kind: Kind, frame: Rect, url: String, poster: String? = nil, isEmbeddedPage: Bool = false, fallback: [Element]
    ) {
        self.kind = kind
        self.frame = frame
        self.url = url
        self.poster = poster
        self.isEmbeddedPage = isEmbeddedPage
        self.fallback = fallback
    }
}

/// Elements sharing a transform, a clip, an opacity, a link or an interactive role.
public struct Group: Sendable, Hashable {
    /// The content, painted in order.
    public var elements: [Element]
    /// Maps the group's coordinates to its parent's.
    public var transform: Transform
    /// A clip outline in the group's own coordinates.
    public var clip: Path?
    /// Multiplies the opacity of everything inside.
    public var opacity: Double
    /// A URL opened when the group is clicked (SVG `<a>`).
    public var link: String?
    /// An accessible label, written as the group's `<title>`.
    public var label: String?
    /// What the group does in interactive output.
    public var role: Role?

    /// What a group does in interactive output.
    public enum Role: Sendable, Hashable {
        /// Hovering the group shows the tooltip group with the same id.
        case tooltipTrigger(id: String)
        /// A tooltip, hidden until its trigger is hovered; static output leaves it out.
        case tooltip(id: String)
        /// The button choosing item `index` of segmented control `control`.
        case segmentButton(control: String, index: Int)
        /// Item `index` of segmented control `control`; only `selected` items show in static output.
        case segment(control: String, index: Int, selected: Bool)
    }

    /// Creates a group.
    public init(
        _ elements: [Element], transform: Transform = .identity, clip: Path? = nil, opacity: Double = 1,
        link: String? = nil, label: String? = nil, role: Role? = nil
    ) {
        self.elements = elements
        self.transform = transform
        self.clip = clip
        self.opacity = opacity
        self.link = link
        self.label = label
        self.role = role
    }

    /// Whether static output (PNG, plain SVG) shows the group.
    public var isVisibleStatically: Bool {
        switch role {
        case .tooltip: false
        case .segment(_, _, let selected): selected
        default: true
        }
    }
}
