import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

/// iARVis links as iARVis reads them: actions, parameters and their defaults, and every way one can
/// be wrong; their validation inside specs; and the child widgets they open.
struct IARVisLinkTests {
    private func encoded(_ text: String) -> String { IARVisLink.percentEncoded(text) }

    @Test func deepLinksPercentEncodeAllButUnreserved() throws {
        #expect(
            IARVisLink.openVisConfig("https://a.example/s/x y.json?k=1&é")
                == "iARVis://openVisConfig?url=https%3A%2F%2Fa.example%2Fs%2Fx%20y.json%3Fk%3D1%26%C3%A9")
        #expect(IARVisLink.percentEncoded("Az09-._~") == "Az09-._~")
        #expect(IARVisLink.openVisConfig(json: #"{"a": 1}"#) == "iARVis://openVisConfig?json=%7B%22a%22%3A%201%7D")
        #expect(
            try IARVisLink.parse(IARVisLink.openVisConfig(json: #"{"a": 1}"#)) == .openVisConfig(.json(#"{"a": 1}"#)),
            "what it writes, it reads")
    }

    @Test func theThreeActionsAndTheirDefaults() throws {
        #expect(
            try IARVisLink.parse("iARVis://link?href=\(encoded("https://example.org/a b"))")
                == .link(href: "https://example.org/a b"))
        let json = #"{"text": {"content": "Hi"}}"#
        guard case .openComponent(let open) = try IARVisLink.parse("IARVIS://openComponent?json=\(encoded(json))")
        else {
            Issue.record("not openComponent")
            return
        }
        #expect(
            open.source == .json(json) && open.anchor == .auto && open.relativePosition == [0, 0, 0] && open.size == nil
                && open.isScrollEnabled)
        let placed = try IARVisLink.parse(
            "iarvis://opencomponent?url=\(encoded("https://a.example/c.json"))&anchor=top&relativePosition=\(encoded("[0, 0.1, 0]"))&size=[600,400]&isScrollEnabled=FALSE"
        )
        guard case .openComponent(let child) = placed else {
            Issue.record("not openComponent")
            return
        }
        #expect(
            child.source == .url("https://a.example/c.json") && child.anchor == .top
                && child.relativePosition == [0, 0.1, 0])
        #expect(child.size == [600, 400] && !child.isScrollEnabled)
        #expect(try IARVisLink.parse("iARVis://openVisConfig?json=\(encoded("{}"))") == .openVisConfig(.json("{}")))
    }

    @Test(
        arguments: [
            ("iARVis://openComponnt?json=x", "unknown iARVis action", "did you mean 'openComponent'?"),
            ("iARVis:openComponent?json=x", "iARVis://ACTION", nil),
            ("iARVis://openComponent", "needs url= or json=", nil),
            ("iARVis://openComponent?json=a&url=https%3A%2F%2Fa.example", "not both", nil),
            ("iARVis://openComponent?json=a&json=b", "given twice", nil),
            ("iARVis://openComponent?json=a&anchr=top", "no parameter \"anchr\"", "did you mean 'anchor'?"),
            ("iARVis://openComponent?json=%E0%A4%", "does not decode", nil),
            ("iARVis://openComponent?json=a&anchor=toop", "not an anchor point", "did you mean 'top'?"),
            ("iARVis://openComponent?json=a&anchor=cover", "not an anchor point", nil),
            ("iARVis://openComponent?json=a&relativePosition=[1,2]", "is not [x, y, z]", nil),
            ("iARVis://openComponent?json=a&size=[0,400]", "is not [width, height]", nil),
            ("iARVis://openComponent?json=a&isScrollEnabled=yes", "not true or false", nil),
            ("iARVis://openComponent?url=file%3A%2F%2F%2Fetc%2Fpasswd", "not an http or https URL", nil),
            ("iARVis://link?href=example.org", "not an absolute URL", nil),
            ("iARVis://link", "needs href=", nil),
        ] as [(String, String, String?)])
    func everyProblemIsNamed(_ link: String, _ message: String, _ hint: String?) {
        do {
            _ = try IARVisLink.parse(link)
            Issue.record("\(link) read")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            if let hint { #expect(error.hint == hint) }
        }
    }

    @Test func embeddedSpecsAreValidatedAtTheLink() throws {
        let child = #"{"vStack": {"elements": [{"txet": {}}]}}"#
        let spec = #"""
            {
              "text": {"content": "See [more](iARVis://openComponent?json=\#(encoded(child))&anchor=top) and [bad](iARVis://opn?json=x)"}
            }
            """#
        let result = SpecReader.read(json: Data(spec.utf8), file: "w.json")
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2)
        let embedded = try #require(errors.first { $0.message.contains("txet") })
        #expect(embedded.location.line == 2 && embedded.location.column == 23, "at the string holding the link")
        #expect(embedded.path == "text.content→openComponent.json.vStack.elements[0]")
        #expect(embedded.message.contains("its JSON 1:27") && embedded.hint == "did you mean 'text'?")
        #expect(errors.contains { $0.message.contains("unknown iARVis action \"opn\"") })
        #expect(result.links.map(\.url).count == 2 && result.links[0].location.line == 2)
    }

    @Test func aLinkToAPageFollowsTheSafeLinkRule() throws {
        let spec = #"{"text": {"content": "[x](iARVis://link?href=javascript%3Aalert(1))"}}"#
        let result = SpecReader.read(json: Data(spec.utf8))
        #expect(result.diagnostics.count == 1 && result.diagnostics[0].code == .unsafeLink)
    }

    @Test func openingLinksAddsTheirChildWidgetsAsIARVisDoes() throws {
        let leaf = #"{"text": {"content": "Leaf"}}"#
        let middle =
            "{\"text\": {\"content\": \"[next](iARVis://openComponent?json=\(encoded(leaf).replacingOccurrences(of: "\"", with: "\\\""))&anchor=trailing)\"}}"
        let root = WidgetConfiguration(
            component: .text(
                Component.Text(
                    "[open](iARVis://openComponent?json=\(encoded(middle))&anchor=bottom&relativePosition=\(encoded("[0,-0.01,0]"))&size=[600,400]) and [page](https://example.org)"
                )))
        let opened = root.openingLinks { _ in nil }
        let child = try #require(opened.additionalWidgetConfiguration?.first)
        #expect(child.key == middle)
        #expect(
            child.widgetConfiguration.relativeAnchorPoint == .bottom
                && child.widgetConfiguration.relativePosition == Vec3(0, -0.01, 0))
        #expect(
            child.widgetConfiguration.size == Size(width: 600, height: 400)
                && child.widgetConfiguration.isScrollEnabled == true)
        let grandchild = try #require(child.widgetConfiguration.additionalWidgetConfiguration?.first)
        #expect(grandchild.key == leaf && grandchild.widgetConfiguration.relativeAnchorPoint == .trailing)
        #expect(
            root.openingLinks(depth: 1) { _ in nil }.additionalWidgetConfiguration?.first?.widgetConfiguration
                .additionalWidgetConfiguration == nil)
        let fetched = WidgetConfiguration(
            component: .text(Component.Text("[x](iARVis://openComponent?url=https%3A%2F%2Fa.example%2Fc.json)")))
        #expect(fetched.openingLinks { _ in nil }.additionalWidgetConfiguration == nil, "not fetched: left out")
        #expect(
            fetched.openingLinks { $0 == "https://a.example/c.json" ? Array(leaf.utf8) : nil }
                .additionalWidgetConfiguration?.first?.key == "https://a.example/c.json")
    }

    @Test func linksAreListedInDocumentOrder() {
        let component = Component.vStack(
            Component.VStack(elements: [
                .vStack(Component.VStack(elements: [.text(Component.Text("[first](https://a.example/1)"))])),
                .text(Component.Text("[second](https://a.example/2)")),
            ]))
        #expect(component.links == ["https://a.example/1", "https://a.example/2"])
    }

    @Test func theCorpusChainsRead() throws {
        guard let folder = Corpus.iarvisFolder else { return }
        for name in ["example1.json", "example2.json"] {
            let url = folder.appendingPathComponent("environments/\(name)")
            let result = SpecReader.read(json: try Data(contentsOf: url), file: name)
            #expect(!result.diagnostics.containsErrors, "\(result.diagnostics.first?.description ?? "")")
            let opens = result.links.compactMap { $0.action }.filter { $0.name == "openComponent" }
            #expect(opens.count == 1, "\(name)")
        }
    }
}
