import ARVisPipeline
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// Which widgets a device rebuilds, and which datasets a spec's charts follow.
struct WidgetDigestTests {
    private func document(_ json: String) throws -> SpecDocument {
        let result = SpecReader.read(json: Data(json.utf8))
        return try #require(result.document, "\(result.diagnostics)")
    }

    private func environment(
        firstText: String = "A", width: Double = 0.4, position: String = "[0, 0, 0]", child: Bool = false,
        chart: String? = nil
    ) -> String {
        let children =
            child
            ? #", "additionalWidgetConfiguration": {"more": {"key": "more", "widgetConfiguration": {"component": {"text": {"content": "More"}}, "relativeAnchorPoint": "bottom", "relativePosition": [0, 0, 0]}}}"#
            : ""
        let second = chart.map { #"{"chart": \#($0)}"# } ?? #"{"text": {"content": "B"}}"#
        return """
            {"imageTrackingConfigurations": [
              {"imageURL": "https://example.org/a.jpg", "physicalWidth": \(width), "relationships": [
                {"widgetConfiguration": {"component": {"text": {"content": "\(firstText)"}}, "relativeAnchorPoint": "top", "relativePosition": \(position)\(children)}},
                {"widgetConfiguration": {"component": \(second), "relativeAnchorPoint": "bottom", "relativePosition": [0, 0, 0]}}]},
              {"imageURL": "https://example.org/b.jpg", "relationships": [
                {"widgetConfiguration": {"component": {"text": {"content": "C"}}, "relativeAnchorPoint": "top", "relativePosition": [0, 0, 0]}}]}]}
            """
    }

    private func changes(_ old: String, _ new: String) throws -> (changed: [String], removed: [String]) {
        WidgetDigest(try document(new)).changes(since: WidgetDigest(try document(old)))
    }

    @Test func onlyTheWidgetsThatDifferAreChanged() throws {
        let base = environment()
        #expect(try changes(base, base) == ([], []))
        #expect(try changes(base, environment(firstText: "A2")) == (["image1-widget1"], []))
        #expect(try changes(base, environment(position: "[0.1, 0, 0]")) == (["image1-widget1"], []))
        // The first poster grows: its widgets move with it; the second poster's do not (relative to their target).
        let grown = try changes(base, environment(width: 0.8))
        #expect(!grown.changed.isEmpty && grown.changed.allSatisfy { $0.hasPrefix("image1-") } && grown.removed.isEmpty)
        // A child widget added is a widget of its own; its parent does not change.
        #expect(try changes(base, environment(child: true)) == (["image1-widget1-more"], []))
        #expect(try changes(environment(child: true), base) == ([], ["image1-widget1-more"]))
        #expect(
            WidgetDigest(try document(base)).changes(since: nil).changed == [
                "image1-widget1", "image1-widget2", "image2-widget1",
            ])
    }

    /// A device draws again only the widgets whose picture changed; moved ones keep theirs.
    @Test func onlyWidgetsThatLookDifferentAreRedrawn() throws {
        let base = environment()
        let redrawn = { (new: String) in
            WidgetDigest(try document(new)).redrawn(since: WidgetDigest(try document(base)))
        }
        #expect(try redrawn(environment(firstText: "A2")) == ["image1-widget1"])
        #expect(try redrawn(environment(position: "[0.1, 0, 0]")) == [], "moved, not redrawn")
        #expect(try redrawn(environment(width: 0.8)) == [], "its poster grew: moved with it")
        #expect(try redrawn(environment(child: true)) == ["image1-widget1-more"])
        #expect(WidgetDigest(try document(base)).redrawn(since: nil).count == 3)
    }

    @Test func standaloneDocumentsAreOneWidget() throws {
        let text = #"{"text": {"content": "Hi"}}"#
        #expect(try changes(text, text) == ([], []))
        #expect(try changes(text, #"{"text": {"content": "Ho"}}"#) == (["component"], []))
    }

    @Test func chartsFollowingADatasetAreFound() throws {
        let chart = #"""
            {"dataSources": [{"label": "default", "data": {"t": [], "v": []}, "dataset": {"name": "sensor", "rows": 50}}],
             "components": [{"type": "LineMark", "config": {"x": {"field": "t"}, "y": {"field": "v"}}}]}
            """#
        let digest = WidgetDigest(try document(environment(chart: chart)))
        #expect(digest.datasets.keys.sorted() == ["sensor"])
        #expect(
            digest.datasets["sensor"]?.widgets == ["image1-widget2"] && digest.datasets["sensor"]?.link.rowLimit == 50)
        #expect(WidgetDigest(try document(environment())).datasets.isEmpty)
    }

    @Test func datasetLinksAreValidated() throws {
        func errors(_ link: String) -> [String] {
            let json =
                #"{"dataSources": [{"label": "default", "data": {"t": [1]}, "dataset": \#(link)}], "components": [{"type": "BarMark", "config": {"x": {"field": "t"}, "y": {"field": "t"}}}]}"#
            return SpecReader.read(json: Data(json.utf8)).diagnostics.filter { $0.severity == .error }.map(\.message)
        }
        #expect(errors(#"{"name": "sensor", "seconds": 60}"#).isEmpty)
        #expect(errors(#"{"name": "no spaces"}"#).first?.contains("cannot name a dataset") == true)
        #expect(errors(#"{"name": "s", "rows": 0}"#).first?.contains("1 to 100000 rows") == true)
        #expect(errors(#"{"name": "s", "seconds": -1}"#).first?.contains("greater than 0") == true)
        #expect(!errors(#"{"rows": 5}"#).isEmpty)
    }
}
