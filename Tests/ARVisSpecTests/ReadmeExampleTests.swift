import ARVisSpec
import Foundation
import Testing

/// The README's example, verbatim, so it keeps compiling and meaning what it says.
struct ReadmeExampleTests {
    @Test func readmeExampleBuildsTheDocumentedEnvironment() throws {
        let environment = Environment(version: "1.0") {
            ImageTrackingConfiguration("https://example.org/painting.jpg") {
                WidgetConfiguration(.trailing) {
                    .vStack(alignment: .leading, spacing: 8) {
                        .text("**Christ's Entry into Brussels**", font: FontStyle(size: 24, weight: .bold))
                        Component.image("https://example.org/ensor.jpg")
                    }
                }
            }
        }
        let written = SpecWriter.json(.environment(environment))
        #expect(try SpecReader.decode(Data(written.utf8)) == .environment(environment))
        #expect(environment.imageTrackingConfigurations?.first?.relationships.count == 1)
    }
}
