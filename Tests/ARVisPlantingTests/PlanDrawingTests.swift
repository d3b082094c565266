import ARVisGraphics
import ARVisPlanting
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

struct PlanDrawingTests {
    @Test func drawsTheAreaTreesScaleBarAndLegend() throws {
        let plan = AreaPlanner.plan(SiteTests.site, mix: SiteTests.mix, layout: .poisson, seed: 1)
        let drawing = PlanDrawing(title: "Test plan").drawing(plan)
        let svg = SVGWriter().write(drawing)
        #expect(svg.hasPrefix("<svg"))
        for text in [
            "Test plan", "oak — ", "pine — ", "\(plan.trees.count) trees", "closest pair", "standing tree",
            "exclusion zone", ">N<", " m<",
        ] {
            #expect(svg.contains(text), "missing \(text)")
        }
        // The 80 m × 50 m site keeps its proportions.
        #expect(drawing.extent.width > 400 && drawing.extent.height > drawing.extent.width * 50 / 80)
        #expect(try XMLDocumentCheck.isWellFormed(svg))
        // Deterministic.
        #expect(SVGWriter().write(PlanDrawing(title: "Test plan").drawing(plan)) == svg)
    }

    @Test func emptyAndDegeneratePlansStillDraw() {
        let empty = PlantingPlan(site: PlantingSite(areas: []), mix: .uniform(spacing: 3), trees: [])
        #expect(SVGWriter().write(PlanDrawing().drawing(empty)).contains("0 trees"))
        let line = PlantingPlan(
            site: PlantingSite(Area(outer: [SIMD2(0, 0), SIMD2(10, 0), SIMD2(20, 0)])), mix: .uniform(spacing: 3),
            trees: [])
        #expect(SVGWriter().write(PlanDrawing().drawing(line)).hasPrefix("<svg"))
    }
}

/// Well-formedness through Foundation's XML parser.
enum XMLDocumentCheck {
    static func isWellFormed(_ text: String) throws -> Bool {
        #if canImport(FoundationXML)
        return FoundationXML.XMLParser(data: Data(text.utf8)).parse()
        #else
        return XMLParser(data: Data(text.utf8)).parse()
        #endif
    }
}
