import ARVisGraphics
import ARVisSpec
import ARVisSupport
import Foundation
import Testing

struct SVGWriterTests {
    private func sample() -> Drawing {
        var drawing = Drawing(extent: Size(width: 200.5, height: 100), title: "A <title> & more", summary: "desc")
        drawing.elements = [
            .shape(
                Shape(
                    path: .rect(Rect(x: 0.333, y: 1, width: 10, height: 10)),
                    fill: DrawingColor(red: 255, green: 0, blue: 0, opacity: 0.5))),
            .group(
                Group(
                    [.text(TextRun("Tap \"here\"", at: Point(4, 20), face: .bold, size: 12))],
                    link: "https://example.org/?a=1&b=2")),
            .group(
                Group(
                    [.shape(Shape(path: .circle(center: Point(50, 50), radius: 5), fill: .black))],
                    role: .tooltipTrigger(id: "t1"))),
            .group(Group([.text(TextRun("tip", at: Point(50, 30), size: 10))], role: .tooltip(id: "t1"))),
            .group(
                Group(
                    [.text(TextRun("one", at: Point(0, 80), size: 10))],
                    role: .segment(control: "c", index: 0, selected: true))),
            .group(
                Group(
                    [.text(TextRun("two", at: Point(0, 80), size: 10))],
                    role: .segment(control: "c", index: 1, selected: false))),
        ]
        return drawing
    }

    @Test func writesAccessibleDeterministicSVG() {
        let svg = SVGWriter().write(sample())
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("viewBox=\"0 0 200.5 100\""))
        #expect(svg.contains("<title>A &lt;title&gt; &amp; more</title>"))
        #expect(svg.contains("<desc>desc</desc>"))
        #expect(
            svg.contains("<a href=\"https://example.org/?a=1&amp;b=2\" target=\"_blank\" rel=\"noopener noreferrer\">"))
        #expect(svg.contains(">Tap &quot;here&quot;</text>"))
        #expect(svg.contains("M0.33 1L10.33 1"))
        #expect(svg.contains("fill-opacity=\"0.502\"") || svg.contains("fill-opacity=\"0.5\""))
        #expect(svg == SVGWriter().write(sample()))
    }

    @Test func staticOutputShowsOnlyWhatAStillPictureShows() {
        let svg = SVGWriter().write(sample())
        #expect(!svg.contains(">tip<"))
        #expect(svg.contains(">one<") && !svg.contains(">two<"))
    }

    @Test func interactiveOutputKeepsTooltipsAndSegmentsForThePageScript() {
        let svg = SVGWriter(interactive: true).write(sample())
        #expect(svg.contains("class=\"arvis-hover\" data-tooltip=\"t1\""))
        #expect(svg.contains("id=\"t1\" class=\"arvis-tooltip\" visibility=\"hidden\""))
        #expect(svg.contains(">two<") && svg.contains("data-index=\"1\" display=\"none\""))
        // The tooltip is painted last, above everything else.
        #expect(svg.range(of: "id=\"t1\"")!.lowerBound > svg.range(of: ">two<")!.lowerBound)
        let page = HTMLWriter().page(sample())
        #expect(page.contains("<!DOCTYPE html>") && page.contains("arvis-segment-button") && page.contains(svg))
    }

    @Test func mediaIsARealElementInHTMLAndChromeElsewhere() {
        let chrome = Element.shape(Shape(path: .rect(Rect(x: 0, y: 0, width: 10, height: 10)), fill: .black))
        let drawing = Drawing(
            extent: Size(width: 100, height: 100),
            elements: [
                .media(
                    MediaItem(
                        kind: .video, frame: Rect(x: 0, y: 0, width: 80, height: 45), url: "movie.mp4",
                        fallback: [chrome]))
            ])
        #expect(
            SVGWriter(interactive: true).write(drawing).contains(
                "<video xmlns=\"http://www.w3.org/1999/xhtml\" controls=\"controls\" preload=\"none\" src=\"movie.mp4\""
            ))
        #expect(!SVGWriter().write(drawing).contains("<video"))
    }
}
