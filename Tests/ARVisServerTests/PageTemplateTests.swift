import Testing

@testable import ARVisServer

/// The pages' templates (`Web/Templates`): slots filled, text kept, and every template embedded and
/// used.
struct PageTemplateTests {
    @Test func slotsAreFilledAndTheRestIsKeptAsItIs() {
        let template = PageTemplate(text: "<p>{{name}} · {{count}}</p>{ {{name}} }{{unclosed")
        #expect(template.slots == ["name", "count", "name"])
        #expect(template.render(["name": "Olga", "count": "3"]) == "<p>Olga · 3</p>{ Olga }{{unclosed")
        #expect(template.render([:]) == "<p> · </p>{  }{{unclosed")
        #expect(PageTemplate(text: "").render(["name": "x"]).isEmpty)
    }

    @Test func everyTemplateIsEmbeddedAndHasText() {
        let names = EmbeddedFiles.texts.keys.filter { $0.hasPrefix(PageTemplate.folder) }
        #expect(names.count >= 16, "\(names.sorted())")
        for name in names {
            #expect(
                PageTemplate(String(name.dropFirst(PageTemplate.folder.count))).render([:]).isEmpty == false, "\(name)")
        }
    }

    @Test func styleSheetsAreInlinedOnOneLine() {
        let style = PageTemplate.style("hub.css")
        #expect(style.hasPrefix("body{") && style.hasSuffix("z-index:1}") && !style.contains("\n"))
    }

    @Test func everyPageFillsEverySlot() {
        let pages = [
            StudioPage(mapTiles: "https://tile.openstreetmap.org/{z}/{x}/{y}.png").html,
            ScenePreviewPage(model: "/preview/abc/scene.glb").html,
            APIDocument.shared.referencePage,
        ]
        for page in pages {
            #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
            #expect(page.firstMatch(of: /\{\{[A-Za-z]+\}\}/) == nil, "\(page.prefix(200))")
        }
        #expect(APIDocument.shared.referencePage.contains(#"<td class="method put">PUT</td>"#))
    }
}
