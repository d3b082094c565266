import ARVisSpec
import Foundation
import Testing

struct ColorMapTests {
    static func chart(_ config: String) -> String {
        #"{"dataSources": [{"label": "default", "data": {"x": ["a", "b"], "y": [1, 2]}}], "components": [{"type": "BarMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}, \#(config)}}]}"#
    }

    @Test func aMapUnderASingleColourIsFlagged() {
        let both = SpecReader.read(
            json: Data(
                Self.chart(
                    ##""foregroundStyleColor": "#2076B4", "foregroundStyleColorMap": [{"field": "x", "value": "a", "color": "#FF9500"}]"##
                ).utf8))
        #expect(
            both.diagnostics.map(\.message) == [
                "this colour map never applies: foregroundStyleColor colours every datum first, as in iARVis"
            ])
        #expect(both.diagnostics.first?.path == "components[0].config.foregroundStyleColorMap")
        let mapOnly = SpecReader.read(
            json: Data(
                Self.chart(##""foregroundStyleColorMap": [{"field": "x", "value": "a", "color": "#FF9500"}]"##).utf8))
        #expect(mapOnly.diagnostics.isEmpty)
    }
}
