/// Choices that change how a widget is rendered.
public struct RenderOptions: Sendable {
    /// Draw all of a scrolling widget's content, growing the picture, instead of clipping it at the frame.
    public var fullHeight: Bool
    /// Downloaded bytes of images and posters by URL, embedded as data URIs; others get placeholders.
    public var resources: [String: Resource]
    /// How much one widget may draw.
    public var limits = RenderLimits()

    /// A downloaded image.
    public struct Resource: Sendable, Hashable {
        /// The file's bytes.
        public var data: [UInt8]
        /// Its media type, such as `image/png`.
        public var mimeType: String

        /// The image's width and height in pixels, read from its PNG, GIF or JPEG header.
        public var pixelSize: (width: Double, height: Double)? { ImageHeader.pixelSize(data) }

        /// Creates a resource whose media type is read from the bytes' signature (PNG, JPEG, GIF, WebP, SVG).
        public init(data: [UInt8]) {
            self.init(data: data, mimeType: ImageHeader.mimeType(data))
        }

        /// Creates a resource.
        public init(data: [UInt8], mimeType: String) {
            self.data = data
            self.mimeType = mimeType
        }
    }

    /// Creates options.
    public init(fullHeight: Bool = false, resources: [String: Resource] = [:]) {
        self.fullHeight = fullHeight
        self.resources = resources
    }
}
