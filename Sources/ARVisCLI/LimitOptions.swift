import ARVisRender
import ArgumentParser

/// The options that raise or lower what one widget may draw.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-cells"), help: "The most table cells one widget may draw.")
    var maximumCells = RenderLimits().maximumTableCells

    @Option(name: .customLong("max-marks"), help: "The most marks (bars, points …) one widget may draw.")
    var maximumMarks = RenderLimits().maximumMarks

    @Option(name: .customLong("max-splom-fields"), help: "The most fields of a scatter-plot matrix.")
    var maximumSplomFields = RenderLimits().maximumSplomFields

    @Option(
        name: .customLong("max-rows"),
        help: "The most data rows of one line, area or point chart (about 550 bytes of memory each).")
    var maximumRows = RenderLimits().maximumSeriesRows

    var limits: RenderLimits {
        RenderLimits(
            maximumTableCells: maximumCells, maximumMarks: maximumMarks, maximumSplomFields: maximumSplomFields,
            maximumSeriesRows: maximumRows)
    }

    func validate() throws {
        guard maximumCells >= 1, maximumMarks >= 1, maximumSplomFields >= 1, maximumRows >= 1 else {
            throw ValidationError("--max-cells, --max-marks, --max-splom-fields and --max-rows must be at least 1")
        }
    }
}
