/// The three kinds of spec document.
public enum DocumentKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A whole AR environment (iARVis's `VisualizationConfiguration`, extended).
    case environment
    /// A single component, such as `{"vStack": …}`.
    case component
    /// A chart configuration (`dataSources` + `components`).
    case chart
}

/// A spec document: an environment, a component or a chart.
public enum SpecDocument: Sendable, Hashable {
    case environment(Environment)
    case component(Component)
    case chart(Chart)

    /// The document's kind.
    public var kind: DocumentKind {
        switch self {
        case .environment: .environment
        case .component: .component
        case .chart: .chart
        }
    }
}

extension SpecDocument {
    /// Reads `node` as a document of `kind`, or of the kind its keys show.
    init?(from node: Node, kind: DocumentKind?, in context: DecodingContext) {
        guard let kind = kind ?? Self.detectKind(of: node, context) else { return nil }
        switch kind {
        case .environment:
            guard let value = Environment(from: node, in: context) else { return nil }
            self = .environment(value)
        case .component:
            guard let value = Component(from: node, in: context) else { return nil }
            self = .component(value)
        case .chart:
            guard let value = Chart(from: node, in: context) else { return nil }
            self = .chart(value)
        }
    }

    /// The kind shown by a document's keys; reports a document that is none of them.
    static func detectKind(of node: Node, _ context: DecodingContext) -> DocumentKind? {
        guard let members = node.members else {
            context.typeMismatch(node, expected: "a spec object (an environment, a component or a chart)")
            return nil
        }
        let keys = members.map(\.key)
        // Charts first: a chart's own `annotations` key is also an environment key.
        if keys.contains("dataSources") || keys.contains("components") { return .chart }
        if keys.contains(where: Environment.kindKeys.contains) { return .environment }
        if keys.count == 1, Component.kindNames.contains(keys[0]) { return .component }
        if keys.count > 1, keys.allSatisfy(Component.kindNames.contains) { return .component }
        let known = Array(Environment.kindKeys.sorted()) + ["dataSources", "components"] + Component.kindNames
        let hint = keys.lazy.compactMap { Suggestion.closest(to: $0, among: known) }.first.map {
            "did you mean '\($0)'?"
        }
        context.error(
            .unknownKind, at: node.offset,
            "cannot tell the document kind from its keys (\(keys.isEmpty ? "none" : keys.map { "\"\($0)\"" }.joined(separator: ", ")))",
            hint: hint
                ?? "an environment has imageTrackingConfigurations, a chart dataSources and components, a component one key such as vStack; or pass --kind"
        )
        return nil
    }

    /// The document as a node in canonical key order.
    package var node: Node {
        switch self {
        case .environment(let value): value.node
        case .component(let value): value.node
        case .chart(let value): value.node
        }
    }
}
