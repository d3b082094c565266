import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// The direction a stack lays its elements out in.
enum Axis {
    case horizontal, vertical
}

/// Shares `available` length among children the way SwiftUI stacks do: the least flexible first
/// (flexibility = ideal length − smallest length), each offered an equal part of what is left and
/// taking what it chooses (a fixed-size child takes its size even when that overflows).
func shareLength(_ ideals: [Double], available: Double?, measure: (Int, Double) -> Double) -> [Double] {
    guard let available, ideals.reduce(0, +) > available + 0.001 else { return ideals }
    var lengths = ideals
    var remaining = max(0, available)
    let flexibility = ideals.indices.map { ideals[$0] - measure($0, 0) }
    let order = ideals.indices.sorted { (flexibility[$0], $0) < (flexibility[$1], $1) }
    for (position, index) in order.enumerated() {
        let offer = min(ideals[index], max(0, remaining) / Double(order.count - position))
        lengths[index] = measure(index, offer)
        remaining -= lengths[index]
    }
    return lengths
}

/// `hStack` and `vStack`: elements side by side or one above another, with spacing, alignment and spacers.
struct StackNode: LayoutNode {
    let axis: Axis
    let children: [any LayoutNode]
    let spacing: Double
    /// 0 leading/top, 0.5 centre, 1 trailing/bottom, across the stack's axis.
    let alignment: Double

    private struct Arrangement {
        var sizes: [Size]
        var spacerLength: Double
        var total: Size
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        arrange(proposal, context).total
    }

    private func arrange(_ proposal: Proposal, _ context: RenderContext) -> Arrangement {
        let gaps = spacing * Double(max(0, children.count - 1))
        let spacerCount = children.filter { $0.stretch == .spacer }.count
        var sizes: [Size]
        switch axis {
        case .vertical:
            sizes = children.map { child in
                child.stretch == .spacer
                    ? .zero : child.size(for: Proposal(width: proposal.width, height: nil), in: context)
            }
        case .horizontal:
            let ideals = children.map { child in
                child.stretch == .spacer
                    ? 0 : child.size(for: Proposal(width: nil, height: proposal.height), in: context).width
            }
            let widths = shareLength(ideals, available: proposal.width.map { $0 - gaps }) { index, offer in
                children[index].size(for: Proposal(width: offer, height: proposal.height), in: context).width
            }
            sizes = children.indices.map { index in
                children[index].stretch == .spacer
                    ? .zero
                    : children[index].size(for: Proposal(width: widths[index], height: proposal.height), in: context)
            }
        }
        let along = sizes.reduce(gaps) { $0 + (axis == .horizontal ? $1.width : $1.height) }
        let across = sizes.map { axis == .horizontal ? $0.height : $0.width }.max() ?? 0
        let offered = axis == .horizontal ? proposal.width : proposal.height
        var spacerLength = 0.0
        if spacerCount > 0, let offered, offered > along { spacerLength = (offered - along) / Double(spacerCount) }
        let length = along + spacerLength * Double(spacerCount)
        let total = axis == .horizontal ? Size(width: length, height: across) : Size(width: across, height: length)
        return Arrangement(sizes: sizes, spacerLength: spacerLength, total: total)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let arrangement = arrange(Proposal(width: rect.width, height: rect.height), context)
        var elements: [Element] = []
        var cursor = axis == .horizontal ? rect.minX : rect.minY
        for (index, child) in children.enumerated() {
            if child.stretch == .spacer {
                cursor += arrangement.spacerLength + spacing
                continue
            }
            let size = arrangement.sizes[index]
            let frame: Rect
            switch axis {
            case .horizontal:
                let height = child.stretch == .across ? rect.height : size.height
                frame = Rect(
                    x: cursor, y: rect.minY + (rect.height - height) * alignment, width: size.width, height: height)
                cursor += size.width + spacing
            case .vertical:
                let width = child.stretch == .across ? rect.width : size.width
                frame = Rect(
                    x: rect.minX + (rect.width - width) * alignment, y: cursor, width: width, height: size.height)
                cursor += size.height + spacing
            }
            elements += child.draw(in: frame, context: context)
        }
        return elements
    }
}

/// `spacer`: stretches to fill its stack's free space.
struct SpacerNode: LayoutNode {
    var stretch: Stretch { .spacer }
    func size(for proposal: Proposal, in context: RenderContext) -> Size { .zero }
    func draw(in rect: Rect, context: RenderContext) -> [Element] { [] }
}

/// `divider`: a 1-point line in the primary colour at `opacity`, across the parent stack, with 8 points of padding.
struct DividerNode: LayoutNode {
    let axis: Axis
    let opacity: Double

    var stretch: Stretch { .across }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        axis == .vertical
            ? Size(width: proposal.width ?? 0, height: 17) : Size(width: 17, height: proposal.height ?? 0)
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let line =
            axis == .vertical
            ? Rect(x: rect.minX, y: rect.midY - 0.5, width: rect.width, height: 1)
            : Rect(x: rect.midX - 0.5, y: rect.minY, width: 1, height: rect.height)
        return [.shape(Shape(path: .rect(line), fill: Theme.primary.fading(opacity)))]
    }
}

/// `grid` of `gridRow`s: columns as wide as their widest cell, cells centred; other rows span the grid.
struct GridNode: LayoutNode {
    /// Each row: its cells, or `nil` cells for a row that spans all columns.
    let rows: [Row]
    let spacing = Theme.stackSpacing

    enum Row {
        case cells([any LayoutNode])
        case spanning(any LayoutNode)
    }

    private var columnCount: Int {
        rows.map { if case .cells(let cells) = $0 { cells.count } else { 0 } }.max() ?? 0
    }

    private func columnWidths(_ proposal: Proposal, _ context: RenderContext) -> [Double] {
        var ideals = [Double](repeating: 0, count: columnCount)
        for case .cells(let cells) in rows {
            for (column, cell) in cells.enumerated() {
                ideals[column] = max(ideals[column], cell.size(for: .ideal, in: context).width)
            }
        }
        let available = proposal.width.map { $0 - spacing * Double(max(0, columnCount - 1)) }
        func measure(_ column: Int, _ offer: Double) -> Double {
            rows.reduce(0.0) { widest, row in
                guard case .cells(let cells) = row, column < cells.count else { return widest }
                return max(widest, cells[column].size(for: Proposal(width: offer, height: nil), in: context).width)
            }
        }
        var widths = shareLength(ideals, available: available, measure: measure)
        // Room left over goes to the columns that take it (charts, flexible stacks), in equal
        // shares, as a SwiftUI Grid gives it; columns of fixed width keep theirs.
        guard let available, case let slack = available - widths.reduce(0, +), slack > 0.5 else { return widths }
        let flexible = widths.indices.filter { measure($0, widths[$0] + slack) > widths[$0] + 0.5 }
        for column in flexible { widths[column] = measure(column, widths[column] + slack / Double(flexible.count)) }
        return widths
    }

    private func rowHeights(_ widths: [Double], _ width: Double?, _ context: RenderContext) -> [Double] {
        rows.map { row in
            switch row {
            case .cells(let cells):
                cells.enumerated().map { $1.size(for: Proposal(width: widths[$0], height: nil), in: context).height }
                    .max() ?? 0
            case .spanning(let node):
                node.size(for: Proposal(width: width, height: nil), in: context).height
            }
        }
    }

    func size(for proposal: Proposal, in context: RenderContext) -> Size {
        let widths = columnWidths(proposal, context)
        var width = widths.reduce(0, +) + spacing * Double(max(0, widths.count - 1))
        for case .spanning(let node) in rows {
            width = max(width, node.size(for: Proposal(width: proposal.width, height: nil), in: context).width)
        }
        let heights = rowHeights(widths, proposal.width, context)
        return Size(width: width, height: heights.reduce(0, +) + spacing * Double(max(0, heights.count - 1)))
    }

    func draw(in rect: Rect, context: RenderContext) -> [Element] {
        let widths = columnWidths(Proposal(width: rect.width, height: nil), context)
        let heights = rowHeights(widths, rect.width, context)
        let used = widths.reduce(0, +) + spacing * Double(max(0, widths.count - 1))
        var elements: [Element] = []
        var y = rect.minY
        for (index, row) in rows.enumerated() {
            switch row {
            case .cells(let cells):
                var x = rect.minX + (rect.width - used) / 2
                for (column, cell) in cells.enumerated() {
                    let size = cell.size(for: Proposal(width: widths[column], height: nil), in: context)
                    let frame = Rect(
                        x: x + (widths[column] - size.width) / 2, y: y + (heights[index] - size.height) / 2,
                        width: size.width, height: size.height)
                    elements += cell.draw(in: frame, context: context)
                    x += widths[column] + spacing
                }
            case .spanning(let node):
                let size = node.size(for: Proposal(width: rect.width, height: nil), in: context)
                elements += node.draw(
                    in: Rect(
                        x: rect.minX + (rect.width - size.width) / 2, y: y, width: size.width, height: size.height),
                    context: context)
            }
            y += heights[index] + spacing
        }
        return elements
    }
}
