import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

@testable import ARVisRender

/// Tables as iARVis draws them (`TableView.swift`): structure, not bytes.
struct TableTests {
    /// A table of two titles, three records each.
    private func table(_ orientation: String) throws -> TableConfiguration {
        let json = """
            {"table": {"configuration": {"orientation": {"\(orientation)": {}}, "tableData": {"titles": ["City", "Rain"],
             "data": {"City": ["Oslo", "Lima", "Pune"], "Rain": ["763 mm", "16 mm"]}, "length": 3}}}}
            """
        return try #require(try Self.configuration(json))
    }

    /// The table configuration of a component document, or `nil`.
    static func configuration(_ json: String) throws -> TableConfiguration? {
        guard case .component(.table(let table)) = try SpecReader.decode(Data(json.utf8)) else { return nil }
        return table.configuration
    }

    /// Every line of text the table draws in `width`, by its text.
    private func runs(_ configuration: TableConfiguration, width: Double = 600) throws -> [String: TextRun] {
        let context = try #require(LayoutTests.context)
        let node = TableNode(configuration)
        let size = node.size(for: Proposal(width: width, height: nil), in: context)
        var found: [String: TextRun] = [:]
        func collect(_ elements: [Element]) {
            for element in elements {
                switch element {
                case .text(let run): found[run.text] = run
                case .group(let group): collect(group.elements)
                default: break
                }
            }
        }
        collect(node.draw(in: Rect(x: 0, y: 0, width: size.width, height: size.height), context: context))
        return found
    }

    @Test func aVerticalTableHasOneRowPerTitleWithItsValuesToItsRight() throws {
        let text = try runs(try table("vertical"))
        let city = try #require(text["City"])
        let rain = try #require(text["Rain"])
        #expect(city.origin.x == rain.origin.x, "the titles share one x")
        #expect(rain.origin.y > city.origin.y, "and step down")
        #expect(
            city.face.weight == .bold && text["Oslo"]?.face.weight == .regular,
            "\(city.face) \(String(describing: text["Oslo"]?.face))")
        for (value, title) in [("Oslo", city), ("Lima", city), ("763 mm", rain)] {
            let run = try #require(text[value])
            #expect(
                abs(run.origin.y - title.origin.y) < 0.5 && run.origin.x > title.origin.x,
                "\(value) is on its title's row")
        }
        let lima = try #require(text["Lima"])
        let oslo = try #require(text["Oslo"])
        #expect(lima.origin.x > oslo.origin.x)
        #expect(text["-"] != nil, "a missing value shows -")
    }

    @Test func aHorizontalTableHasATitleRowOverARowPerRecordTrailingAligned() throws {
        let text = try runs(try table("horizontal"))
        let city = try #require(text["City"])
        let rain = try #require(text["Rain"])
        #expect(city.origin.y == rain.origin.y && rain.origin.x > city.origin.x, "the titles are one row")
        let oslo = try #require(text["Oslo"])
        let lima = try #require(text["Lima"])
        #expect(abs(oslo.origin.x - lima.origin.x) < 10 && lima.origin.y > oslo.origin.y, "a row per record")
        #expect(oslo.origin.y > city.origin.y)
        // Trailing: a value ends where its title ends (the column's trailing edge).
        let context = try #require(LayoutTests.context)
        func end(_ run: TextRun) -> Double {
            run.origin.x + context.fonts.font(for: run.face).width(of: run.text, size: run.size)
        }
        let rainfall = try #require(text["763 mm"])
        #expect(abs(end(oslo) - end(city)) < 1 && abs(end(rainfall) - end(rain)) < 1)
    }

    @Test func columnsShareTheWidthEquallyAndRulesSeparateTheRows() throws {
        let context = try #require(LayoutTests.context)
        let node = TableNode(try table("vertical"))
        let size = node.size(for: Proposal(width: 600, height: nil), in: context)
        #expect(size.width == 600)
        let elements = node.draw(in: Rect(x: 0, y: 0, width: 600, height: size.height), context: context)
        let rules = elements.compactMap { element -> Shape? in
            if case .shape(let shape) = element { shape } else { nil }
        }
        #expect(rules.count == 3, "above, between and below the two rows")
        #expect(rules.allSatisfy { $0.fill == TableNode.ruleColor && $0.stroke == nil })
        let text = try runs(try table("vertical"))
        // Four columns (the title and three values), 8 points apart: each (600 − 24) / 4 = 144 wide.
        let oslo = try #require(text["Oslo"])
        let lima = try #require(text["Lima"])
        #expect(abs(oslo.origin.x - 152) < 0.5 && abs(lima.origin.x - 304) < 0.5)
    }

    @Test func twelveColumnsWrapInsteadOfBeingCut() throws {
        let titles = (1...12).map { "Column \($0)" }
        let data = titles.map { "\"\($0)\": [\"a value longer than its column\"]" }.joined(separator: ", ")
        let json = """
            {"table": {"configuration": {"orientation": {"horizontal": {}}, "tableData": {"titles": [\(titles.map { "\"\($0)\"" }.joined(separator: ", "))],
             "data": {\(data)}, "length": 1}}}}
            """
        let configuration = try #require(try Self.configuration(json))
        let context = try #require(LayoutTests.context)
        let node = TableNode(configuration)
        let size = node.size(for: Proposal(width: 1_000, height: nil), in: context)
        #expect(size.width == 1_000, "the table takes its width, no wider")
        #expect(size.height > 4 * 2 * TableNode.rulePadding, "a value wraps onto several lines")
        let text = try runs(configuration, width: 1_000)
        let words = Set(text.keys.flatMap { $0.split(separator: " ").map(String.init) })
        #expect(
            Set(["a", "value", "longer", "than", "its", "column"]).isSubset(of: words), "every word is drawn: \(words)")
        // Each column is (1000 − 11 × 8) / 12 = 76 wide: no line crosses into the next.
        let column = (1_000 - 11 * TableNode.spacing) / 12
        for run in text.values {
            let start = run.origin.x.truncatingRemainder(dividingBy: column + TableNode.spacing)
            let width = context.fonts.font(for: run.face).width(of: run.text, size: run.size)
            #expect(start + width <= column + 0.5, "\(run.text) stays in its column")
        }
    }
}
