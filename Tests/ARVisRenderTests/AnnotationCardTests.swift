import ARVisSpec
import Foundation
import Testing

@testable import ARVisGraphics
@testable import ARVisRender

/// Annotation cards the colour of the widget get a shadow, so a white card shows on a white widget.
struct AnnotationCardTests {
    private func component(_ json: String) throws -> Component {
        guard case .component(let component) = try SpecReader.decode(Data(json.utf8)) else {
            throw SpecError(code: .unknownKind, message: "not a component")
        }
        return component
    }

    @Test(arguments: [("#FFF", true), ("#FAFAFA", true), ("#65C37A", false), ("#FFFFFF00", false)])
    func whiteCardsGetAShadow(color: String, shadowed: Bool) throws {
        let card = try component(
            #"{"text": {"content": "Qingpu", "modifiers": [{"padding": {}}, {"background": {"color": "\#(color)"}}, {"roundedCorner": {"radius": 8}}]}}"#
        )
        let outline = ChartPlotter.outline(of: card, in: Rect(x: 10, y: 10, width: 80, height: 40))
        #expect(outline.count == (shadowed ? 1 : 0))
        if case .shape(let shape)? = outline.first {
            #expect(shape.fill?.opacity == 0.12)
        }
    }

    @Test func plainTextGetsNoShadow() throws {
        #expect(
            ChartPlotter.outline(
                of: try component(#"{"text": {"content": "a"}}"#), in: Rect(x: 0, y: 0, width: 5, height: 5)
            ).isEmpty)
    }
}
