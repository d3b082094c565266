import ARVisSpatial
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Testing

struct PlacementTests {
    private let target = PlanarTarget(size: SIMD2(0.2, 0.15))

    private func widget(_ anchor: AnchorPoint, size: Size? = nil, scale: Double? = nil) -> WidgetConfiguration {
        var widget = WidgetConfiguration(component: .spacer(Component.Spacer()), relativeAnchorPoint: anchor)
        widget.size = size
        widget.scale = scale
        return widget
    }

    private func close(_ a: Vec3, _ b: Vec3) -> Bool { (a - b).length < 1e-9 }

    /// iARVis's worked example: default size and scale give a 0.4 × 0.3 m widget; beside a 0.2 × 0.15 m
    /// image, leading puts its centre at x = −0.3 m and top at z = −0.225 m, in the image plane.
    @Test func explicitAnchorsFollowIARVisExactly() {
        var leading = widget(.leading)
        leading.relativePosition = Vec3(0.01, 0.02, 0.03)
        leading.positionOffset = Vec3(0.001, 0, 0)
        let placed = WidgetPlacement.place(
            [leading, widget(.trailing), widget(.top), widget(.bottom), widget(.center), widget(.cover)], on: target)
        #expect(close(placed[0].pose.translation, Vec3(-0.3 + 0.011, 0.02, 0.03)))
        #expect(close(placed[1].pose.translation, Vec3(0.3, 0, 0)))
        #expect(close(placed[2].pose.translation, Vec3(0, 0, -0.225)))
        #expect(close(placed[3].pose.translation, Vec3(0, 0, 0.225)))
        #expect(close(placed[4].pose.translation, .zero))
        #expect(abs(placed[0].size.x - 0.4) < 1e-12 && abs(placed[0].size.y - 0.3) < 1e-12)
        #expect(placed[5].size == SIMD2(0.2, 0.15))
        // In the image plane: the quad's normal is the image's normal, its up the image's top.
        #expect(close(placed[0].pose.rotation.apply(Vec3(0, 0, 1)), Vec3(0, 1, 0)))
        #expect(close(placed[0].pose.rotation.apply(Vec3(0, 1, 0)), Vec3(0, 0, -1)))
    }

    @Test func alignedToTargetMatchesHeightOrWidth() {
        var side = widget(.leading)
        var above = widget(.top)
        side.alignedToTarget = true
        above.alignedToTarget = true
        let placed = WidgetPlacement.place([side, above], on: target)
        #expect(abs(placed[0].size.y - 0.15) < 1e-12 && abs(placed[0].size.x - 0.2) < 1e-12)
        // Top and bottom match the image's width (iARVis used its height: defect 5).
        #expect(abs(placed[1].size.x - 0.2) < 1e-12)
    }

    @Test func aLoneAutoWidgetStaysOffItsTarget() {
        let placed = WidgetPlacement.place([widget(.auto)], on: target)
        #expect(placed[0].anchor != .center && placed[0].anchor != .auto)
        let center = placed[0].pose.translation
        let gapX = abs(center.x) - (placed[0].size.x + target.size.x) / 2
        let gapY = abs(center.z) - (placed[0].size.y + target.size.y) / 2
        #expect(gapX >= -1e-9 || gapY >= -1e-9)
    }

    /// 1–12 and 1 500 auto widgets of mixed sizes, with explicit ones among them: nothing overlaps
    /// (past a thousand, the old stepping gave up and let widgets overlap).
    @Test(arguments: Array(1...12) + [1_500])
    func autoWidgetsNeverOverlap(count: Int) {
        var generator = SeededGenerator(seed: UInt64(count))
        var widgets: [WidgetConfiguration] = []
        for index in 0..<count {
            let anchor: AnchorPoint = index % 5 == 4 ? [.leading, .top, .bottom][index % 3] : .auto
            widgets.append(
                widget(
                    anchor,
                    size: Size(
                        width: .random(in: 200...1400, using: &generator),
                        height: .random(in: 150...1000, using: &generator)),
                    scale: [0.4 / 1024, 0.4 / 1600, 0.4 / 2048][Int.random(in: 0..<3, using: &generator)]))
        }
        let placed = WidgetPlacement.place(widgets, on: target)
        var rectangles = [(center: SIMD2<Double>(0, 0), size: target.size)]
        rectangles += placed.map { (SIMD2($0.pose.translation.x, $0.pose.translation.z), $0.size) }
        for i in rectangles.indices {
            for j in rectangles.indices where j > i {
                let gapX =
                    abs(rectangles[i].center.x - rectangles[j].center.x) - (rectangles[i].size.x + rectangles[j].size.x)
                    / 2
                let gapY =
                    abs(rectangles[i].center.y - rectangles[j].center.y) - (rectangles[i].size.y + rectangles[j].size.y)
                    / 2
                // Explicit widgets may overlap each other as declared; everything else must not.
                let bothExplicit =
                    i > 0 && j > 0 && widgets[i - 1].relativeAnchorPoint != .auto
                    && widgets[j - 1].relativeAnchorPoint != .auto
                #expect(bothExplicit || gapX >= -1e-9 || gapY >= -1e-9, "rectangles \(i) and \(j) overlap")
            }
        }
    }

    @Test func autoPrefersTheSideFacingTheViewer() {
        let left = WidgetPlacement.place([widget(.auto)], on: target, viewpoint: Vec3(-5, 1, 0))
        #expect(left[0].anchor == .leading)
        let below = WidgetPlacement.place([widget(.auto)], on: target, viewpoint: Vec3(0, 1, 5))
        #expect(below[0].anchor == .bottom)
    }

    @Test func childWidgetsSitEdgeToEdgeInTheirParentsPlane() {
        var parent = widget(.trailing)
        var child = widget(.top)
        child.size = Size(width: 512, height: 512)
        parent.additionalWidgetConfiguration = [
            AdditionalWidgetConfiguration(key: "detail", widgetConfiguration: child)
        ]
        let placed = WidgetPlacement.place([parent], on: target)
        let childPlaced = placed[0].children[0]
        // Parent content 0.4 × 0.3 m; child 0.2 × 0.2 m: top puts the child 0.15 + 0.1 m up the parent's plane.
        let inParent = placed[0].pose.inverse.apply(childPlaced.pose.translation)
        #expect(close(inParent, Vec3(0, 0.25, 0)))
        #expect(childPlaced.pose.rotation.angle(to: placed[0].pose.rotation) < 1e-12)
    }

    @Test func imageTargetsTakeTheirSizeFromTheSpec() {
        let size = PlanarTarget.imageSize(physicalWidth: 0.42, aspectRatio: 0.75)
        #expect(size.x == 0.42 && abs(size.y - 0.56) < 1e-12)
        #expect(PlanarTarget.imageSize(physicalWidth: nil, aspectRatio: nil) == SIMD2(0.2, 0.2))
    }
}
