import ARVisSpec
import ARVisSupport
import Foundation
import Testing

struct BuilderTests {
    @Test func builtEnvironmentEqualsDecodedJSON() throws {
        let showDate = true
        let built = SpecDocument.environment(
            Environment(version: "1.0") {
                ImageTrackingConfiguration("https://example.org/painting.jpg") {
                    WidgetConfiguration(.trailing, size: Size(width: 800, height: 600)) {
                        .vStack(alignment: .leading, spacing: 8) {
                            .text("**Christ's Entry into Brussels**", font: FontStyle(size: 24, weight: .bold))
                            if showDate { Component.text("1888") }
                            .image("https://example.org/ensor.jpg")
                        }
                    }
                }
            })
        let json = #"""
            {"version": "1.0", "imageTrackingConfigurations": [{"imageURL": "https://example.org/painting.jpg", "relationships": [
              {"widgetConfiguration": {"relativeAnchorPoint": "trailing", "relativePosition": [0, 0, 0], "size": [800, 600],
               "component": {"vStack": {"alignment": "leading", "spacing": 8, "elements": [
                 {"text": {"content": "**Christ's Entry into Brussels**", "fontStyle": {"size": 24, "weight": "bold"}}},
                 {"text": {"content": "1888"}},
                 {"image": {"url": "https://example.org/ensor.jpg", "contentMode": "fit"}}]}}}}]}]}
            """#
        #expect(try SpecReader.decode(Data(json.utf8)) == built)
    }

    @Test func builtChartEqualsDecodedJSON() throws {
        let built = SpecDocument.chart(
            Chart {
                DataSource(data: DataTable(["Model": ["M1", "M2"], "Score": [1.0, 1.4]]))
            } marks: {
                ChartComponent.mark(.bar, x: "Model", y: "Score") { $0.cornerRadius = 4 }
            })
        let json = #"""
            {"dataSources": [{"label": "default", "data": {"Model": ["M1", "M2"], "Score": [1.0, 1.4]}}],
             "components": [{"type": "BarMark", "config": {"x": {"field": "Model"}, "y": {"field": "Score"}, "cornerRadius": 4}}]}
            """#
        #expect(try SpecReader.decode(Data(json.utf8)) == built)
    }
}
