/// A path into a document, such as `imageTrackingConfigurations[0].relationships[1].widgetConfiguration`.
package struct DocumentPath: Sendable, Hashable {
    /// One step of a path.
    package enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    package private(set) var components: [Component] = []

    package init(_ components: [Component] = []) { self.components = components }

    package mutating func append(_ component: Component) { components.append(component) }
    package mutating func removeLast() { components.removeLast() }

    /// The path as authors read it: keys joined by dots, indices in brackets, odd keys quoted.
    package var text: String {
        var result = ""
        for component in components {
            switch component {
            case .index(let index):
                result += "[\(index)]"
            case .key(let key) where Self.isPlainKey(key):
                result += result.isEmpty ? key : ".\(key)"
            case .key(let key):
                result += "[\(Node.string(key).compactText)]"
            }
        }
        return result
    }

    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || scalar == "$" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar)
        }
    }
}
