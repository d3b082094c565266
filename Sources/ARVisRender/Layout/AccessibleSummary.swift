import ARVisSpec

/// A plain-text description of a component for the SVG `<desc>`: its text without Markdown, link
/// titles, media names and a one-line account of each chart, at most 300 characters.
enum AccessibleSummary {
    static let limit = 300

    static func text(for component: Component) -> String {
        var parts: [String] = []
        var length = 0
        collect(component, into: &parts, length: &length)
        let joined = parts.filter { !$0.isEmpty }.joined(separator: " · ")
        return joined.count <= limit ? joined : String(joined.prefix(limit - 1)) + "…"
    }

    /// Adds the parts of `component` and its children until `length` (characters so far) reaches the limit.
    private static func collect(_ component: Component, into parts: inout [String], length: inout Int) {
        guard length < limit else { return }
        let count = parts.count
        switch component {
        // Only the beginning of a long text can show; its Markdown is read only that far, unless a
        // link (an iARVis link embeds a whole component) would be cut, and with it its target shown.
        case .text(let text):
            let read = text.content.utf8.count <= 262_144 ? text.content : String(text.content.prefix(limit * 4))
            parts.append(String(InlineMarkdown.parse(read).map(\.text).joined().prefix(limit * 4)).replacingNewlines())
        case .link(let link): parts.append(link.title ?? link.url)
        case .image(let image): parts.append("image \(Placeholder.fileName(image.url))")
        case .audio(let audio): parts.append("audio \(audio.title ?? Placeholder.fileName(audio.url))")
        case .video(let video): parts.append("video \(video.url)")
        case .chart(let chart): parts.append(describe(chart))
        case .splom(let splom): parts.append("scatter-plot matrix of \(splom.fields.joined(separator: ", "))")
        case .segmentedControl(let control): parts.append("tabs: \(control.items.map(\.title).joined(separator: ", "))")
        default: break
        }
        length += parts[count...].reduce(0) { $0 + $1.count }
        for child in component.children { collect(child, into: &parts, length: &length) }
    }

    /// "Chart: BarMark (x: Score, y: Laptop)".
    static func describe(_ chart: Chart) -> String {
        let marks = chart.components.map { mark -> String in
            let config = mark.config
            let channels: [(String, String?)] = [
                ("x", config.x?.field), ("x", config.xStart.map { "\($0.field)–\(config.xEnd?.field ?? "")" }),
                ("y", config.y?.field ?? config.ySeries?.joined(separator: ", ")),
                ("y", config.yStart.map { "\($0.field)–\(config.yEnd?.field ?? "")" }),
            ]
            let named = channels.compactMap { name, field in field.map { "\(name): \($0)" } }
            return "\(mark.type.rawValue) (\(named.joined(separator: ", ")))"
        }
        return "Chart: " + marks.joined(separator: "; ")
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
