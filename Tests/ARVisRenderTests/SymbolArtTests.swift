import ARVisGraphics
import ARVisSpec
import Testing

@testable import ARVisRender

/// SF Symbols drawn as our own shapes: every name in the table, in every variant, inside its square.
struct SymbolArtTests {
    static let square = Rect(x: 10, y: 20, width: 24, height: 24)

    /// The extent of everything drawn, strokes widened by half their width.
    static func extent(_ elements: [Element]) -> Rect? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        func visit(_ elements: [Element]) {
            for element in elements {
                switch element {
                case .shape(let shape):
                    let pad = (shape.stroke?.width ?? 0) / 2
                    for point in shape.path.flattened().flatMap(\.points) {
                        (minX, maxX) = (min(minX, point.x - pad), max(maxX, point.x + pad))
                        (minY, maxY) = (min(minY, point.y - pad), max(maxY, point.y + pad))
                    }
                case .group(let group): visit(group.elements)
                default: break
                }
            }
        }
        visit(elements)
        return minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }

    static var variants: [String] {
        SymbolArt.names.flatMap { [$0, "\($0).fill", "\($0).circle", "\($0).circle.fill"] }
    }

    @Test(arguments: variants)
    func everySymbolIsDrawnInsideItsSquare(_ name: String) throws {
        let elements = try #require(SymbolArt.draw(name, in: Self.square, ink: .black), "\(name) has art")
        let extent = try #require(Self.extent(elements))
        #expect(extent.width + extent.height > 12, "\(name) is visible")
        let slack = 1.5
        #expect(
            extent.minX >= Self.square.minX - slack && extent.maxX <= Self.square.maxX + slack
                && extent.minY >= Self.square.minY - slack && extent.maxY <= Self.square.maxY + slack,
            "\(name) stays in its square: \(extent)")
    }

    @Test(arguments: SymbolArt.names)
    func filledAndOutlinedDiffer(_ base: String) throws {
        let outlined = try #require(SymbolArt.draw(base, in: Self.square, ink: .black))
        let filled = try #require(SymbolArt.draw(base + ".fill", in: Self.square, ink: .black))
        let circled = try #require(SymbolArt.draw(base + ".circle.fill", in: Self.square, ink: .black))
        #expect(circled != filled)
        // Symbols SF Symbols has no filled variant of draw the same either way.
        let strokeOnly = [
            "checkmark", "xmark", "plus", "minus", "info", "exclamationmark", "questionmark", "tornado", "wind",
            "thermometer", "magnifyingglass", "music.note",
        ]
        if !strokeOnly
            .contains(base) && !base.hasPrefix("arrow") && !base.hasPrefix("chevron")
        {
            #expect(outlined != filled, "\(base) has a filled variant")
        }
    }

    /// SF Symbols' multicolour tints for the corpus's weather symbols and the common ones that have them.
    @Test(arguments: [
        ("sun.max.fill", SymbolArt.yellow), ("cloud.heavyrain.fill", SymbolArt.blue),
        ("thermometer.sun.fill", SymbolArt.red), ("heart.fill", SymbolArt.red),
        ("exclamationmark.triangle.fill", SymbolArt.yellow), ("cloud.fill", SymbolArt.cloudWhite),
    ])
    func multicolourSymbolsKeepTheirTints(_ name: String, color: DrawingColor) throws {
        let elements = try #require(SymbolArt.draw(name, in: Self.square, ink: .black))
        func colors(_ elements: [Element]) -> [DrawingColor] {
            elements.flatMap { element -> [DrawingColor] in
                switch element {
                case .shape(let shape): [shape.fill, shape.stroke?.color].compactMap { $0 }
                case .group(let group): colors(group.elements)
                default: []
                }
            }
        }
        #expect(colors(elements).contains(color), "\(name)")
    }

    @Test func namesParseIntoBaseAndModifiers() throws {
        let name = try #require(SymbolArt.Name("cloud.heavyrain.circle.fill"))
        #expect(name.base == "cloud.heavyrain" && name.isFilled && name.enclosure == "circle")
        #expect(SymbolArt.Name("speaker.wave.2.fill")?.base == "speaker.wave.2")
        #expect(SymbolArt.Name("gearshape") == nil)
        #expect(SymbolArt.Name("") == nil)
    }

    /// A name not in the table gets a visible stand-in holding its initial, never nothing.
    @Test func unknownNamesGetAVisibleStandIn() throws {
        let context = try #require(LayoutTests.context)
        let node = SymbolNode(symbol: .init(name: "gearshape.2", size: 24))
        let drawn = node.draw(in: Rect(x: 0, y: 0, width: 29, height: 29), context: context)
        guard case .group(let group) = drawn.first else {
            Issue.record("no group")
            return
        }
        #expect(group.label == "gearshape.2")
        #expect(group.elements.contains { if case .text(let run) = $0 { run.text == "G" } else { false } })
    }
}
