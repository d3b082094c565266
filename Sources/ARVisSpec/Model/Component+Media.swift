extension Component {
    /// Text; `content` is inline Markdown (bold, italic, code, links).
    public struct Text: Sendable, Hashable {
        /// The text; inline Markdown (bold, italic, code, links) is interpreted.
        public var content: String
        /// How lines align: `leading` (the default), `center` or `trailing`.
        public var multilineTextAlignment: TextAlignment?
        /// The font: size, weight, design and colour; the 17-point body font when absent.
        public var fontStyle: FontStyle?
        /// Modifiers applied in order after the text is built.
        public var modifiers: [Modifier]?

        /// Creates a text component.
        public init(
            _ content: String, multilineTextAlignment: TextAlignment? = nil, fontStyle: FontStyle? = nil,
            modifiers: [Modifier]? = nil
        ) {
            self.content = content
            self.multilineTextAlignment = multilineTextAlignment
            self.fontStyle = fontStyle
            self.modifiers = modifiers
        }
    }

    /// An image loaded from a URL.
    public struct Image: Sendable, Hashable {
        /// The image's URL: http, https, file, data or a path relative to the spec.
        public var url: String
        /// `fit` or `fill`; iARVis requires it in JSON, ARVis defaults to `fit`.
        public var contentMode: ContentMode?
        /// Width in points; without it, from `height` and the image's aspect ratio, or the available width.
        public var width: Double?
        /// Height in points; without it, from the width and the image's aspect ratio.
        public var height: Double?
        /// Clip the image to a circle (default false).
        public var clipToCircle: Bool?
        /// Modifiers applied in order after the image is built.
        public var modifiers: [Modifier]?

        /// Creates an image component.
        public init(
            url: String, contentMode: ContentMode? = .fit, width: Double? = nil, height: Double? = nil,
            clipToCircle: Bool? = nil, modifiers: [Modifier]? = nil
        ) {
            self.url = url
            self.contentMode = contentMode
            self.width = width
            self.height = height
            self.clipToCircle = clipToCircle
            self.modifiers = modifiers
        }
    }

    /// An SF Symbol by name.
    public struct SFSymbol: Sendable, Hashable {
        /// The symbol's name, such as `star.fill`.
        public var name: String
        /// Point size; iARVis's default is 17.
        public var size: Double?
        /// Modifiers applied in order after the symbol is built.
        public var modifiers: [Modifier]?

        /// Creates a symbol component.
        public init(name: String, size: Double? = nil, modifiers: [Modifier]? = nil) {
            self.name = name
            self.size = size
            self.modifiers = modifiers
        }
    }

    /// An audio player.
    public struct Audio: Sendable, Hashable {
        /// The title the player shows.
        public var title: String?
        /// The audio file's URL.
        public var url: String
        /// Modifiers applied in order after the player is built.
        public var modifiers: [Modifier]?

        /// Creates an audio component.
        public init(url: String, title: String? = nil, modifiers: [Modifier]? = nil) {
            self.url = url
            self.title = title
            self.modifiers = modifiers
        }
    }

    /// A video player (YouTube URLs show a thumbnail that opens the video).
    public struct Video: Sendable, Hashable {
        /// The video's URL; a YouTube URL shows a thumbnail that opens the video.
        public var url: String
        /// Width in points; without it, from `height` at 16:9, or the available width up to 640.
        public var width: Double?
        /// Height in points; without it, 9/16 of the width.
        public var height: Double?
        /// Modifiers applied in order after the player is built.
        public var modifiers: [Modifier]?

        /// Creates a video component.
        public init(url: String, width: Double? = nil, height: Double? = nil, modifiers: [Modifier]? = nil) {
            self.url = url
            self.width = width
            self.height = height
            self.modifiers = modifiers
        }
    }

    /// A link. iARVis declares it but crashes on it; ARVis renders it. `title` is an ARVis extension.
    public struct Link: Sendable, Hashable {
        /// The URL the link opens: a web page or an `iARVis://` link.
        public var url: String
        /// The text shown (ARVis extension); the URL when absent.
        public var title: String?
        /// Modifiers applied in order after the link is built.
        public var modifiers: [Modifier]?

        /// Creates a link component.
        public init(url: String, title: String? = nil, modifiers: [Modifier]? = nil) {
            self.url = url
            self.title = title
            self.modifiers = modifiers
        }
    }
}

extension Component.Text: NodeCodable {
    static let shape = ObjectShape(
        "Text with inline Markdown (bold, italic, code, links).",
        [
            .required("content", .string(), "The text; inline Markdown is interpreted."),
            .optional("multilineTextAlignment", TextAlignment.schema, "Line alignment (default leading)."),
            .optional("fontStyle", .ref(FontStyle.self), "Font size, weight, design and colour."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let content = object.required("content", as: String.self)
        let alignment = object.optional("multilineTextAlignment", as: TextAlignment.self)
        let font = object.optional("fontStyle", as: FontStyle.self)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let content else { return nil }
        context.at("content") { URLCheck.checkMarkdownLinks(content, at: object.offset(of: "content"), context) }
        self.init(content, multilineTextAlignment: alignment, fontStyle: font, modifiers: modifiers)
    }

    package var node: Node {
        .object([
            ("content", .string(content)), ("multilineTextAlignment", multilineTextAlignment?.node),
            ("fontStyle", fontStyle?.node), ("modifiers", modifiers?.node),
        ])
    }
}

extension Component.Image: NodeCodable {
    static let shape = ObjectShape(
        "An image loaded from a URL.",
        [
            .required("url", URLCheck.schema, "The image's URL (http, https, file, data or a relative path)."),
            .optional("contentMode", ContentMode.schema, "fit or fill (default fit; iARVis requires the key)."),
            .optional("width", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength), "Width in points."),
            .optional("height", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength), "Height in points."),
            .optional("clipToCircle", .boolean, "Clip the image to a circle."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let url = object.resourceURL("url", context)
        let mode = object.optional("contentMode", as: ContentMode.self)
        let width = object.positive("width", "an image width", context)
        let height = object.positive("height", "an image height", context)
        let clip = object.optional("clipToCircle", as: Bool.self)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let url else { return nil }
        self.init(url: url, contentMode: mode, width: width, height: height, clipToCircle: clip, modifiers: modifiers)
    }

    package var node: Node {
        .object([
            ("url", .string(url)), ("contentMode", contentMode?.node), ("width", width?.node),
            ("height", height?.node), ("clipToCircle", clipToCircle?.node), ("modifiers", modifiers?.node),
        ])
    }
}

extension Component.SFSymbol: NodeCodable {
    static let shape = ObjectShape(
        "An SF Symbol by name.",
        [
            .required("name", .string(minLength: 1), "The symbol's name, such as \"star.fill\"."),
            .optional(
                "size", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength), "Point size (default 17)."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let name = object.required("name", as: String.self)
        let size = object.positive("size", "a symbol size", context)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let name else { return nil }
        self.init(name: name, size: size, modifiers: modifiers)
    }

    package var node: Node { .object([("name", .string(name)), ("size", size?.node), ("modifiers", modifiers?.node)]) }
}

extension Component.Audio: NodeCodable {
    static let shape = ObjectShape(
        "An audio player.",
        [
            .optional("title", .string(), "The title shown in the player."),
            .required("url", URLCheck.schema, "The audio file's URL."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let title = object.optional("title", as: String.self)
        let url = object.resourceURL("url", context)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let url else { return nil }
        self.init(url: url, title: title, modifiers: modifiers)
    }

    package var node: Node { .object([("title", title?.node), ("url", .string(url)), ("modifiers", modifiers?.node)]) }
}

extension Component.Video: NodeCodable {
    static let shape = ObjectShape(
        "A video player; YouTube URLs show a thumbnail.",
        [
            .required("url", URLCheck.schema, "The video's URL."),
            .optional("width", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength), "Width in points."),
            .optional("height", .number(exclusiveMinimum: 0, maximum: SpecLimits.largestLength), "Height in points."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let url = object.resourceURL("url", context)
        let width = object.positive("width", "a video width", context)
        let height = object.positive("height", "a video height", context)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        guard let url else { return nil }
        self.init(url: url, width: width, height: height, modifiers: modifiers)
    }

    package var node: Node {
        .object([
            ("url", .string(url)), ("width", width?.node), ("height", height?.node), ("modifiers", modifiers?.node),
        ])
    }
}

extension Component.Link: NodeCodable {
    static let shape = ObjectShape(
        "A link (iARVis crashes on it; ARVis renders it).",
        [
            .required("url", URLCheck.schema, "The URL the link opens."),
            .optional("title", .string(), "The text shown (ARVis extension; default the URL)."),
            Schema.modifiersProperty,
        ])
    package static var schema: Schema { .object(shape) }

    package init?(from node: Node, in context: DecodingContext) {
        guard let object = ObjectReader(node, context, shape: Self.shape) else { return nil }
        let url = object.required("url", as: String.self)
        if let url { context.at("url") { URLCheck.check(url, .action, at: object.offset(of: "url"), context) } }
        let title = object.optional("title", as: String.self)
        let modifiers = object.optional("modifiers", as: [Modifier].self)
        context.warning(
            .compatibility, at: node.offset, "iARVis crashes on the link component; only ARVis shows it",
            hint: "for iARVis, use a text with a Markdown link: [title](url)")
        guard let url else { return nil }
        self.init(url: url, title: title, modifiers: modifiers)
    }

    package var node: Node { .object([("url", .string(url)), ("title", title?.node), ("modifiers", modifiers?.node)]) }
}

extension ObjectReader {
    /// Decodes a required resource URL and checks its scheme.
    package func resourceURL(_ key: String, _ context: DecodingContext) -> String? {
        guard let url = required(key, as: String.self) else { return nil }
        return context.at(key) { URLCheck.check(url, .resource, at: offset(of: key), context) } ? url : nil
    }

    /// Decodes an optional number that must be positive.
    package func positive(
        _ key: String, _ what: String, maximum: Double = SpecLimits.largestLength, _ context: DecodingContext
    ) -> Double? {
        let value = optional(key, as: Double.self)
        return context.at(key) { NumberCheck.positive(value, what, maximum: maximum, at: offset(of: key), context) }
            ? value : nil
    }

    /// Decodes an optional number that must not be negative.
    package func nonNegative(_ key: String, _ what: String, _ context: DecodingContext) -> Double? {
        let value = optional(key, as: Double.self)
        return context.at(key) { NumberCheck.nonNegative(value, what, at: offset(of: key), context) } ? value : nil
    }
}
