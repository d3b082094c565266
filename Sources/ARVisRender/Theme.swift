import ARVisGraphics
import ARVisSpec

/// The look of iOS in light mode, as iARVis widgets show it: system colours, type sizes, spacings.
enum Theme {
    static let primary = DrawingColor(red: 0, green: 0, blue: 0)
    static let secondary = DrawingColor(red: 60, green: 60, blue: 67, opacity: 0.6)
    static let tertiaryFill = DrawingColor(red: 118, green: 118, blue: 128, opacity: 0.12)
    static let separator = DrawingColor(red: 60, green: 60, blue: 67, opacity: 0.29)
    static let gridLine = DrawingColor(red: 60, green: 60, blue: 67, opacity: 0.18)
    static let accent = DrawingColor(red: 0, green: 122, blue: 255)
    static let placeholderFill = DrawingColor(red: 229, green: 229, blue: 234)
    static let placeholderInk = DrawingColor(red: 142, green: 142, blue: 147)
    static let widgetBackground = DrawingColor.white

    /// SwiftUI's body text size.
    static let bodySize = 17.0
    /// The default spacing between stack elements.
    static let stackSpacing = 8.0
    /// The padding SwiftUI applies to an edge a `padding` modifier leaves out.
    static let systemPadding = 16.0
    /// The widget's corner radius.
    static let widgetCornerRadius = 24.0

    /// Swift Charts' default categorical palette.
    static let palette: [DrawingColor] = [
        NamedColor.blue, .green, .orange, .purple, .red, .cyan, .yellow, .brown, .pink, .indigo, .mint, .teal,
    ].map { drawingColor($0.components) }

    /// The drawing colour of a spec colour.
    static func color(_ color: Color) -> DrawingColor { drawingColor(color.components) }

    static func drawingColor(_ rgba: RGBA) -> DrawingColor {
        DrawingColor(unitRed: rgba.red, green: rgba.green, blue: rgba.blue, opacity: rgba.alpha)
    }

    /// The face nearest to an iARVis weight and design (default and rounded → Sans, monospaced → Mono, serif → Serif).
    static func face(weight: FontWeight, design: FontDesign, italic: Bool = false) -> FontFace {
        let family: FontFace.Family =
            switch design {
            case .monospaced: .mono
            case .serif: .serif
            default: .sans
            }
        let faceWeight: FontFace.Weight =
            switch weight {
            case .ultraLight, .thin, .light: .light
            case .regular: .regular
            case .medium: .medium
            case .semibold: .semibold
            default: .bold
            }
        return FontFace(family: family, weight: faceWeight, isItalic: italic)
    }
}
