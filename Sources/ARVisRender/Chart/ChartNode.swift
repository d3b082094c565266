import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// `chart`: a Swift Charts–style plot. `maxWidth`/`maxHeight` fix the frame (height 200 when absent,
/// as iARVis caps it), `padding` defaults to 16 above and below.
final class ChartNode: LayoutNode {
    let chart: Chart
    private(set) lazy var prepared = PreparedChart(chart)

    init(chart: Chart) { self.chart = chart }

    static let defaultHeight = 200.0
    static let defaultPadding = EdgeInsets(leading: 0, top: 16, trailing: 0, bottom: 16)

    private var padding: EdgeInsets { chart.styleConfiguration?.padding ?? Self.defaultPadding }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let width =
            chart.styleConfiguration?.maxWidth ?? proposal.width.map { $0 - padding.leading - padding.trailing } ?? 400
        let height = chart.styleConfiguration?.maxHeight ?? Self.defaultHeight
        return Size(
            width: max(0, width) + padding.leading + padding.trailing, height: height + padding.top + padding.bottom)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let frame = rect.inset(top: padding.top, left: padding.leading, bottom: padding.bottom, right: padding.trailing)
        var plotter = ChartPlotter(
            chart: chart, prepared: prepared, frame: frame, margins: context.canvas ?? rect, context: context)
        return plotter.draw()
    }
}
