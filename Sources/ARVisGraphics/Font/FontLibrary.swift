import ARVisSupport
import Foundation

/// The faces text is measured and drawn in, loaded once: Inter for sans-serif text when Debian's
/// `fonts-inter` is installed (the freely licensed face nearest to SF Pro and SF Rounded), else
/// DejaVu Sans; DejaVu Sans Mono and DejaVu Serif; a symbol font and a colour emoji font when present.
///
/// ```swift
/// let fonts = try FontLibrary.standard()
/// let width = fonts.font(for: .bold).width(of: "Hello", size: 17)
/// ```
public final class FontLibrary: Sendable {
    /// The folder the faces were read from.
    public let directory: String
    private let faces: [FontFace: LoadedFace]
    /// DejaVu Sans Book, which every face falls back to.
    private let regular: LoadedFace

    /// A face as loaded: the font file, and whether italics must be slanted by the writer.
    struct LoadedFace: Sendable {
        let font: TrueTypeFont
        let needsSyntheticSlant: Bool
    }

    /// Folders searched, in order, when no directory is given and `ARVIS_FONT_DIR` is unset.
    public static let searchDirectories = [
        "/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
        "/usr/local/share/fonts/dejavu", "/opt/homebrew/share/fonts", "/Library/Fonts",
    ]

    /// Loads the faces from `directory`.
    ///
    /// DejaVu Sans, Sans Mono and Serif (Book and Bold) are required; oblique and light faces are used
    /// when present, else the upright face is slanted or the regular weight used.
    /// - Throws: ``GraphicsError`` with code `fontMissing` naming the package to install.
    public init(directory: String) throws {
        self.directory = directory
        var files: [String: TrueTypeFont] = [:]
        var faces: [FontFace: LoadedFace] = [:]
        for family in FontFace.Family.allCases {
            for weight in FontFace.Weight.allCases {
                for italic in [false, true] {
                    let face = FontFace(family: family, weight: weight, isItalic: italic)
                    faces[face] = try Self.load(face, from: directory, cache: &files)
                }
            }
        }
        let found = Self.fallbackFont(in: directory)
        let fallback = found?.font
        let emoji = Self.colorEmojiFont(in: directory)
        self.faces = faces.mapValues {
            LoadedFace(
                font: $0.font.withFallback(fallback, colorEmoji: emoji?.font),
                needsSyntheticSlant: $0.needsSyntheticSlant)
        }
        let regular = try Self.load(
            FontFace(family: .sans, weight: .regular, isItalic: false), from: directory, cache: &files)
        self.regular = LoadedFace(
            font: regular.font.withFallback(fallback, colorEmoji: emoji?.font), needsSyntheticSlant: false)
        fallbackName = found?.file
        colorEmojiName = emoji?.file
        sansName = Self.interDirectory(near: directory) == nil ? "DejaVu Sans" : "Inter"
    }

    /// The sans-serif face in use: "Inter" or "DejaVu Sans".
    public let sansName: String

    /// The colour emoji font drawing emoji as pictures, by file, when installed.
    public let colorEmojiName: String?

    /// Colour bitmap emoji fonts, best first: in the font directory, else where Debian's
    /// `fonts-noto-color-emoji` puts it.
    public static let colorEmojiFiles = [
        "NotoColorEmoji.ttf", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ]

    private static func colorEmojiFont(in directory: String) -> (file: String, font: ColorEmojiFont)? {
        firstReadable(colorEmojiFiles, in: directory, as: ColorEmojiFont.init(bytes:))
    }

    /// The first of `files` (names in `directory`, or absolute paths) that reads as a font through `read`.
    private static func firstReadable<Font>(
        _ files: [String], in directory: String, as read: ([UInt8]) -> Font?
    ) -> (file: String, font: Font)? {
        for file in files {
            if let data = FileManager.default.contents(atPath: path(file, in: directory)),
                let font = read([UInt8](data))
            {
                return (file, font)
            }
        }
        return nil
    }

    /// The symbol or emoji font drawing what DejaVu lacks (emoji, more symbols), by file, when installed.
    public let fallbackName: String?

    /// Symbol and emoji fonts with TrueType outlines, best first: in the font directory, else where
    /// Debian's `fonts-symbola` and `fonts-noto-core` put them.
    public static let fallbackFiles = [
        "Symbola.ttf", "Symbola_hint.ttf", "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
    ]

    private static func path(_ file: String, in directory: String) -> String {
        file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file)
    }

    private static func fallbackFont(in directory: String) -> (file: String, font: TrueTypeFont)? {
        firstReadable(fallbackFiles, in: directory, as: TrueTypeFont.init(bytes:))
    }

    /// Folders searched for Inter's `.otf` files after the font directory.
    public static let interDirectories = ["/usr/share/fonts/opentype/inter", "/usr/local/share/fonts/inter"]

    /// The Inter file for each weight.
    private static let interNames: [FontFace.Weight: String] = [
        .light: "Light", .regular: "Regular", .medium: "Medium", .semibold: "SemiBold", .bold: "Bold",
    ]

    /// The folder holding Inter's regular and bold faces, if any.
    private static func interDirectory(near directory: String) -> String? {
        ([directory] + interDirectories).first {
            FileManager.default.isReadableFile(atPath: $0 + "/Inter-Regular.otf")
                && FileManager.default.isReadableFile(atPath: $0 + "/Inter-Bold.otf")
        }
    }

    /// Inter for `face`: its own file, or the upright one slanted when the italic is missing.
    private static func interFace(_ face: FontFace, in folder: String, cache: inout [String: TrueTypeFont]) throws
        -> LoadedFace?
    {
        guard let name = interNames[face.weight] else { return nil }
        let italic = name == "Regular" ? "Italic" : name + "Italic"
        if face.isItalic, let font = try read("Inter-\(italic).otf", in: folder, cache: &cache) {
            return LoadedFace(font: font, needsSyntheticSlant: false)
        }
        guard let font = try read("Inter-\(name).otf", in: folder, cache: &cache) else { return nil }
        return LoadedFace(font: font, needsSyntheticSlant: face.isItalic)
    }

    private static func load(_ face: FontFace, from directory: String, cache: inout [String: TrueTypeFont]) throws
        -> LoadedFace
    {
        if face.family == .sans, let folder = interDirectory(near: directory),
            let inter = try interFace(face, in: folder, cache: &cache)
        {
            return inter
        }
        // DejaVu has no medium or semibold: the nearer of Book and Bold stands in.
        var face = face
        if face.weight == .medium { face.weight = .regular }
        if face.weight == .semibold { face.weight = .bold }
        for (name, slanted) in candidateFiles(face) {
            if let font = try read(name, in: directory, cache: &cache) {
                return LoadedFace(font: font, needsSyntheticSlant: slanted)
            }
        }
        let required = baseName(face.family) + (face.weight == .bold ? "-Bold" : "") + ".ttf"
        guard let font = try read(required, in: directory, cache: &cache) else {
            let path = (directory as NSString).appendingPathComponent(required)
            throw GraphicsError(
                .fontMissing,
                "font file \(path) not found; install the DejaVu fonts (Debian/Ubuntu: apt-get install fonts-dejavu-core) or point ARVIS_FONT_DIR at a folder holding DejaVuSans.ttf",
                location: path)
        }
        return LoadedFace(font: font, needsSyntheticSlant: face.isItalic)
    }

    private static func baseName(_ family: FontFace.Family) -> String {
        switch family {
        case .sans: "DejaVuSans"
        case .mono: "DejaVuSansMono"
        case .serif: "DejaVuSerif"
        }
    }

    /// Files that provide `face` exactly, best first, with whether they still need slanting.
    private static func candidateFiles(_ face: FontFace) -> [(String, Bool)] {
        let base = baseName(face.family)
        let slant = face.family == .serif ? "Italic" : "Oblique"
        switch (face.weight, face.isItalic) {
        case (.light, false): return face.family == .sans ? [("\(base)-ExtraLight.ttf", false)] : []
        case (.light, true):
            return face.family == .sans ? [("\(base)-ExtraLight.ttf", true)] : [("\(base)-\(slant).ttf", false)]
        case (.regular, true): return [("\(base)-\(slant).ttf", false)]
        case (.bold, true): return [("\(base)-Bold\(slant).ttf", false)]
        default: return []
        }
    }

    /// The font file `name` of `directory`, or `nil` when there is none.
    private static func read(_ name: String, in directory: String, cache: inout [String: TrueTypeFont]) throws
        -> TrueTypeFont?
    {
        if let font = cache[name] { return font }
        let path = (directory as NSString).appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let font = TrueTypeFont(bytes: [UInt8](data)) else {
            throw GraphicsError(.fontInvalid, "\(path) is not a TrueType font this reader understands", location: path)
        }
        cache[name] = font
        return font
    }

    /// The font for `face`.
    public func font(for face: FontFace) -> TrueTypeFont { (faces[face] ?? regular).font }

    /// Whether `face` is drawn by slanting an upright font (its file is absent).
    public func needsSyntheticSlant(_ face: FontFace) -> Bool { (faces[face] ?? regular).needsSyntheticSlant }

    private static let cache = LibraryCache()

    /// The library for `directory`, or for `ARVIS_FONT_DIR`, or the first of ``searchDirectories``
    /// holding `DejaVuSans.ttf`; loaded once per process and shared.
    /// - Throws: ``GraphicsError`` when no folder holds the fonts.
    public static func standard(directory: String? = nil) throws -> FontLibrary {
        let chosen =
            directory ?? ProcessInfo.processInfo.environment["ARVIS_FONT_DIR"]
            ?? searchDirectories.first { FileManager.default.fileExists(atPath: $0 + "/DejaVuSans.ttf") }
            ?? searchDirectories[0]
        return try cache.library(for: chosen)
    }
}

/// Libraries loaded so far, by directory.
private final class LibraryCache: Sendable {
    private let libraries = Locked<[String: FontLibrary]>([:])

    func library(for directory: String) throws -> FontLibrary {
        try libraries.withLock { libraries in
            if let library = libraries[directory] { return library }
            let library = try FontLibrary(directory: directory)
            libraries[directory] = library
            return library
        }
    }
}
