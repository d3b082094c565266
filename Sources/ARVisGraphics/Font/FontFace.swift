/// Which typeface a text run uses: a family, a weight and a slant.
public struct FontFace: Sendable, Hashable {
    /// The three families.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// Inter (else DejaVu Sans), DejaVu Sans Mono and DejaVu Serif.
        case sans, mono, serif

        /// The CSS `font-family` list for SVG and HTML output.
        public var cssFamily: String {
            switch self {
            case .sans: "Inter, 'DejaVu Sans', Verdana, sans-serif"
            case .mono: "'DejaVu Sans Mono', Menlo, monospace"
            case .serif: "'DejaVu Serif', Georgia, serif"
            }
        }
    }

    /// The weights drawn: Inter has each; DejaVu draws medium as regular and semibold as bold.
    public enum Weight: Int, Sendable, Hashable, CaseIterable {
        /// Light (300 in Inter, DejaVu's ExtraLight), regular, medium, semibold and bold.
        case light = 300
        case regular = 400
        case medium = 500
        case semibold = 600
        case bold = 700
    }

    /// Sans, Mono or Serif.
    public var family: Family
    /// Light, regular, medium, semibold or bold.
    public var weight: Weight
    /// Whether the face is italic (oblique).
    public var isItalic: Bool

    /// Creates a face.
    public init(family: Family = .sans, weight: Weight = .regular, isItalic: Bool = false) {
        self.family = family
        self.weight = weight
        self.isItalic = isItalic
    }

    /// Sans regular.
    public static let regular = FontFace()
    /// Sans bold.
    public static let bold = FontFace(weight: .bold)
}
