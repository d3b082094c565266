/// Document-wide checks of an environment: unique ids, anchors that exist, distinct image targets.
struct EnvironmentCheck {
    let environment: Environment
    let object: ObjectReader
    let context: DecodingContext

    func run() {
        if Environment.kindKeys.allSatisfy({ object.value($0) == nil }) {
            context.error(
                .missingKey, at: object.node.offset,
                "an environment needs at least one of \(Environment.kindKeys.sorted().joined(separator: ", "))",
                hint: "iARVis environments have \"imageTrackingConfigurations\"")
        }
        checkImageTargets()
        let anchorIDs = checkUniqueIDs()
        checkAnchorReferences("placements", environment.placements?.map(\.anchor), anchorIDs)
        checkAnchorReferences("annotations", environment.annotations?.map(\.anchor), anchorIDs)
    }

    private func checkImageTargets() {
        guard let targets = environment.imageTrackingConfigurations,
            let nodes = object.value("imageTrackingConfigurations")?.elements,
            targets.count == nodes.count
        else { return }
        var seen: [String: Int] = [:]
        for (index, target) in targets.enumerated() {
            if let first = seen[target.imageURL] {
                context.at("imageTrackingConfigurations") {
                    context.at(index: index) {
                        context.warning(
                            .invalidValue, at: nodes[index]["imageURL"]?.offset ?? nodes[index].offset,
                            "the same image as imageTrackingConfigurations[\(first)]; iARVis confuses the two targets",
                            hint: "merge their relationships into one target")
                    }
                }
            } else {
                seen[target.imageURL] = index
            }
        }
    }

    /// Reports ids used twice across anchors, placements and annotations; returns the anchor ids.
    private func checkUniqueIDs() -> Set<String> {
        var seen: [String: String] = [:]
        var anchors: Set<String> = []
        let lists: [(String, [String?]?, Bool)] = [
            ("worldAnchors", environment.worldAnchors?.map(\.id), true),
            ("geoAnchors", environment.geoAnchors?.map(\.id), true),
            ("placements", environment.placements?.map(\.id), false),
            ("annotations", environment.annotations?.map(\.id), false),
        ]
        for (key, ids, isAnchor) in lists {
            guard let ids, let nodes = object.value(key)?.elements, nodes.count == ids.count else { continue }
            for (index, id) in ids.enumerated() {
                guard let id else { continue }
                if isAnchor { anchors.insert(id) }
                if let first = seen[id] {
                    report(
                        key, index, subkey: "id", nodes[index]["id"] ?? nodes[index], .invalidValue,
                        "the id \"\(id)\" is already used by \(first)", hint: "ids must be unique in a document")
                } else {
                    seen[id] = "\(key)[\(index)]"
                }
            }
        }
        return anchors
    }

    private func checkAnchorReferences(_ key: String, _ references: [String?]?, _ anchors: Set<String>) {
        guard let references, let nodes = object.value(key)?.elements, nodes.count == references.count else { return }
        for (index, reference) in references.enumerated() {
            guard let reference, !anchors.contains(reference) else { continue }
            report(
                key, index, subkey: "anchor", nodes[index]["anchor"] ?? nodes[index], .unknownReference,
                "no world or geo anchor has the id \"\(reference)\"",
                hint: Suggestion.hint(for: reference, among: anchors.sorted(), listing: true)
                    ?? "define it under worldAnchors or geoAnchors")
        }
    }

    private func report(
        _ key: String, _ index: Int, subkey: String, _ node: Node, _ code: SpecError.Code, _ message: String,
        hint: String?
    ) {
        context.at(key) {
            context.at(index: index) {
                context.at(subkey) { context.error(code, at: node.offset, message, hint: hint) }
            }
        }
    }
}
