import ARVisGraphics
import ARVisSpec
import ARVisSupport

/// Annotations, tooltips and click targets drawn over a chart's plot.
extension ChartPlotter {
    /// Mark annotations (on the first datum), conditional annotations (on the first matching datum)
    /// and chart-level annotations (inside the plot).
    func annotations(_ drawn: [DrawnMark]) -> [Element] {
        var elements: [Element] = []
        for mark in drawn {
            let config = mark.mark.component.config
            if let first = mark.order.first, let anchor = mark.anchors[first] {
                for annotation in config.annotations ?? [] {
                    elements += place(annotation, beside: anchor)
                }
            }
            for conditional in config.conditionalAnnotations ?? [] {
                guard let row = firstRow(in: mark, field: conditional.field, value: conditional.value),
                    let anchor = mark.anchors[row]
                else { continue }
                elements += place(conditional.annotation, beside: anchor)
            }
        }
        for annotation in chart.annotations ?? [] {
            let node = ComponentLayout.node(for: annotation.content)
            let size = node.size(for: Proposal(width: plot.width, height: nil), in: context)
            let (h, v) = Self.alignment(annotation.position)
            let rect = Rect(
                x: plot.minX + (plot.width - size.width) * h, y: plot.minY + (plot.height - size.height) * v,
                width: size.width, height: size.height)
            elements += node.draw(in: rect, context: context)
        }
        return elements
    }

    /// The first drawn row whose raw `field` cell equals `value`.
    func firstRow(in mark: DrawnMark, field: String, value: DataValue) -> Int? {
        guard let column = mark.mark.table[field] else { return nil }
        return mark.order.first { $0 < column.raw.count && column.raw[$0].matches(value) }
    }

    /// Horizontal and vertical fractions for a position (0 leading/top … 1 trailing/bottom).
    static func alignment(_ position: AnnotationPosition) -> (Double, Double) {
        switch position {
        case .topLeading: (0, 0)
        case .top: (0.5, 0)
        case .topTrailing: (1, 0)
        case .leading: (0, 0.5)
        case .center: (0.5, 0.5)
        case .trailing: (1, 0.5)
        case .bottomLeading: (0, 1)
        case .bottom: (0.5, 1)
        case .bottomTrailing: (1, 1)
        }
    }

    /// An annotation beside its mark: outside the mark on the named side or corner, centred for `center`.
    /// It stays on its mark, shifted only as far as keeps it inside the chart and its margins, and is
    /// drawn as the spec says and nothing more (no halo, outline or shadow), as iARVis draws it.
    private func place(_ annotation: ChartAnnotation, beside anchor: Rect) -> [Element] {
        let node = ComponentLayout.node(for: annotation.content)
        let size = node.size(for: Proposal(width: min(frame.width, 320), height: nil), in: context)
        let gap = 4.0
        let (h, v) = Self.alignment(annotation.position)
        var x = h == 0.5 ? anchor.midX - size.width / 2 : h == 0 ? anchor.minX - size.width - gap : anchor.maxX + gap
        var y = v == 0.5 ? anchor.midY - size.height / 2 : v == 0 ? anchor.minY - size.height - gap : anchor.maxY + gap
        if annotation.position == .center {
            x = anchor.midX - size.width / 2
            y = anchor.midY - size.height / 2
        } else if annotation.position == .top || annotation.position == .bottom {
            x = anchor.midX - size.width / 2
        } else if annotation.position == .leading || annotation.position == .trailing {
            y = anchor.midY - size.height / 2
        }
        if size.width < margins.width { x = min(max(x, margins.minX), margins.maxX - size.width) }
        return node.draw(in: Rect(x: x, y: y, width: size.width, height: size.height), context: context)
    }

    /// The shadow of a floating card (tooltip bubbles, annotation cards): a faint dark edge, heavier below.
    static func cardShadow(_ box: Rect, radius: Double) -> Element {
        .shape(
            Shape(
                path: .roundedRect(box.inset(top: -1, left: -1, bottom: -2, right: -1), radius: radius + 1),
                fill: DrawingColor(red: 0, green: 0, blue: 0, opacity: 0.12)))
    }

    /// Hover tooltips (hidden until their mark is hovered) and click targets that open a URL.
    func interactions(_ drawn: [DrawnMark]) -> [Element] {
        var elements: [Element] = []
        for mark in drawn {
            for interaction in mark.mark.component.interactions ?? [] {
                switch interaction {
                case .hover(let tooltip): elements += tooltips(tooltip, mark)
                case .click(let url):
                    guard let url = LinkPolicy.navigable(url) else { continue }
                    let targets = mark.order.compactMap { mark.anchors[$0].map(hitArea) }
                    if !targets.isEmpty { elements.append(.group(Group(targets, link: url, label: "Open \(url)"))) }
                }
            }
        }
        return elements
    }

    private func hitArea(_ anchor: Rect) -> Element {
        let grown = Rect(
            x: anchor.minX - max(0, 8 - anchor.width / 2), y: anchor.minY - max(0, 8 - anchor.height / 2),
            width: max(16, anchor.width), height: max(16, anchor.height))
        return .shape(Shape(path: .rect(grown), fill: .clear))
    }

    private func tooltips(_ tooltip: Tooltip, _ mark: DrawnMark) -> [Element] {
        var contents: [(row: Int, content: Component)] = []
        if tooltip.kind == .manual {
            for entry in tooltip.entries ?? [] {
                if let row = firstRow(in: mark, field: entry.field, value: entry.value) {
                    contents.append((row, entry.content))
                }
            }
        } else {
            contents = mark.order.prefix(2000).map { ($0, automaticTooltip(mark.mark, row: $0)) }
        }
        var elements: [Element] = []
        for (row, content) in contents {
            guard let anchor = mark.anchors[row] else { continue }
            let id = context.makeID("tooltip")
            elements.append(.group(Group([hitArea(anchor)], role: .tooltipTrigger(id: id))))
            elements.append(.group(Group(bubble(content, above: anchor), role: .tooltip(id: id))))
        }
        return elements
    }

    /// A datum's channel values as text, for `Auto` tooltips.
    private func automaticTooltip(_ mark: PreparedMark, row: Int) -> Component {
        let config = mark.component.config
        let lines = [config.x, config.y, config.xStart, config.xEnd, config.yStart, config.yEnd].compactMap { $0 }
            .compactMap { descriptor -> String? in
                guard let column = mark.table[descriptor.field], row < column.raw.count, let text = column.raw[row].text
                else { return nil }
                return "**\(descriptor.field)**: \(text)"
            }
        return .text(Component.Text(lines.joined(separator: "\n"), fontStyle: FontStyle(size: 13)))
    }

    /// A tooltip bubble at most 250 × 140 points, above the mark, or below it when there is no room
    /// above, and inside the chart horizontally, so no part is cut off at the view's edge.
    private func bubble(_ content: Component, above anchor: Rect) -> [Element] {
        let node = ComponentLayout.node(for: content)
        let size = node.size(for: Proposal(width: 250 - 20, height: nil), in: context)
        let width = min(250, size.width + 20)
        let height = min(140, size.height + 16)
        var x = anchor.midX - width / 2
        if width < frame.width { x = min(max(x, frame.minX), frame.maxX - width) }
        var y = anchor.minY - height - 8
        if y < frame.minY { y = min(anchor.maxY + 8, max(frame.minY, frame.maxY - height)) }
        let box = Rect(x: x, y: y, width: width, height: height)
        let inner = Rect(x: box.minX + 10, y: box.minY + 8, width: size.width, height: size.height)
        return [
            Self.cardShadow(box, radius: 10),
            .shape(Shape(path: .roundedRect(box, radius: 10), fill: .white)),
            .group(Group(node.draw(in: inner, context: context), clip: .roundedRect(box, radius: 10))),
        ]
    }
}
