/// Which typeface a text run uses: a family, a weight and a slant.
public struct FontFace: Sendable, Hashable {
    /// The three DejaVu families.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// DejaVu Sans, DejaVu Sans Mono and DejaVu Serif.
        case sans, mono, serif

        /// The CSS `font-family` list for SVG and HTML output.
        public var cssFamily: String {
            switch self {
            case .sans: "'DejaVu Sans', Verdana, sans-serif"
            case .mono: "'DejaVu Sans Mono', Menlo, monospace"
            case .serif: "'DejaVu Serif', Georgia, serif"
            }
        }
    }

    /// The weights the DejaVu files provide.
    public enum Weight: Int, Sendable, Hashable, CaseIterable {
        /// ExtraLight (200), Book (400) and Bold (700).
        case light = 200
        case regular = 400
        case bold = 700
    }

    /// Sans, Mono or Serif.
    public var family: Family
    /// Light, regular or bold.
    public var weight: Weight
    /// Whether the face is italic (oblique).
    public var isItalic: Bool

    /// Creates a face.
    public init(family: Family = .sans, weight: Weight = .regular, isItalic: Bool = false) {
        self.family = family
        self.weight = weight
        self.isItalic = isItalic
    }

    /// DejaVu Sans Book.
    public static let regular = FontFace()
    /// DejaVu Sans Bold.
    public static let bold = FontFace(weight: .bold)
}
