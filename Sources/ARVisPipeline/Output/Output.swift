public import ARVisGraphics
public import ARVisModel
import ARVisSpatial
public import ARVisSupport

/// Bytes made for a caller, with the media type they are served or saved as: what every output
/// format below produces, for the command line to write and the server to answer with.
public struct Output: Sendable, Hashable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// Its media type, such as `image/png`.
    public var mediaType: String

    /// An output of `bytes` as `mediaType`.
    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }
}

/// What a widget's drawing is written as.
public enum WidgetFormat: String, FileFormat {
    /// SVG 1.1, text as text.
    case svg
    /// PNG at a scale, text drawn with the bundled fonts.
    case png
    /// A standalone HTML page with the widget's tooltips and controls.
    case html

    /// The media type of this format.
    public var mediaType: String {
        switch self {
        case .svg: "image/svg+xml"
        case .png: "image/png"
        case .html: "text/html; charset=utf-8"
        }
    }

    /// `.svg`, `.png`, `.html` or `.htm`.
    public var fileExtensions: [String] { self == .html ? ["html", "htm"] : [rawValue] }

    /// The media type without its parameters.
    public var mediaTypes: [String] { [String(mediaType.prefix { $0 != ";" })] }

    /// `drawing` in this format. `fonts` is asked for only by PNG; pictures it cannot decode are
    /// drawn as placeholders and named in `warnings`.
    public func encode(
        _ drawing: Drawing, scale: Double = 1, fonts: () throws -> FontLibrary, warnings: inout [GraphicsError]
    ) throws -> Output {
        switch self {
        case .svg: Output(bytes: Array(SVGWriter().write(drawing).utf8), mediaType: mediaType)
        case .html: Output(bytes: Array(HTMLWriter().page(drawing).utf8), mediaType: mediaType)
        case .png:
            Output(
                bytes: try PNGWriter(fonts: try fonts(), scale: scale).write(drawing, warnings: &warnings),
                mediaType: mediaType)
        }
    }
}

/// What a laid-out scene is written as.
public enum SceneFormat: String, FileFormat {
    /// The scene graph as JSON: every node's transform, size and link.
    case json
    /// glTF 2.0 JSON with its buffers and textures inline.
    case gltf
    /// Binary glTF 2.0.
    case glb
    /// USDZ for AR Quick Look, anchored on the first image target or a plane.
    case usdz

    /// The media type of this format.
    public var mediaType: String {
        switch self {
        case .json: "application/json"
        case .gltf: "model/gltf+json"
        case .glb: "model/gltf-binary"
        case .usdz: ModelFormat.usdz.mediaType
        }
    }

    /// `.json`, `.gltf`, `.glb` or `.usdz`.
    public var fileExtensions: [String] { [rawValue] }

    /// The media types that name it (a USDZ also as `model/vnd.usd+zip`).
    public var mediaTypes: [String] { self == .usdz ? ModelFormat.usdz.mediaTypes : [mediaType] }
}

extension TexturedScene {
    /// The scene in `format`, its widgets' textures drawn at `scale`; `models` are the placements'
    /// 3D models by their `model` string (USDZ only).
    public func encode(as format: SceneFormat, scale: Double = 1, models: [String: Model] = [:]) throws -> Output {
        let bytes: [UInt8] =
            switch format {
            case .json: Array(try graph.json().utf8)
            case .gltf: Array(try GLTFExporter().gltf(graph, textures: try textures(scale: scale)).utf8)
            case .glb: try GLTFExporter().glb(graph, textures: try textures(scale: scale))
            case .usdz: try usdz(textures: try textures(scale: scale), models: models)
            }
        return Output(bytes: bytes, mediaType: format.mediaType)
    }
}

/// What a QR Code is written as.
public enum CodeFormat: String, FileFormat {
    /// SVG, one path of dark modules.
    case svg
    /// PNG, one pixel per module unit.
    case png

    /// The media type of this format.
    public var mediaType: String { self == .svg ? "image/svg+xml" : "image/png" }

    /// `.svg` or `.png`.
    public var fileExtensions: [String] { [rawValue] }

    /// Its media type.
    public var mediaTypes: [String] { [mediaType] }
}

extension QRCode {
    /// The code in `format`, each module `moduleSize` units wide (PNG rounds it to whole pixels);
    /// `fonts` is asked for only by PNG.
    public func encode(as format: CodeFormat, moduleSize: Double, fonts: () throws -> FontLibrary) throws -> Output {
        switch format {
        case .svg: Output(bytes: Array(svg(moduleSize: moduleSize).utf8), mediaType: format.mediaType)
        case .png:
            Output(
                bytes: try PNGWriter(fonts: try fonts(), scale: 1).write(drawing(moduleSize: moduleSize.rounded())),
                mediaType: format.mediaType)
        }
    }
}
