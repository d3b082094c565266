/// "Did you mean …?" for misspelled keys, values and names.
package enum Suggestion {
    /// The closest candidate to `text`, if one is close enough to be a plausible misspelling.
    package static func closest(to text: String, among candidates: some Sequence<String>) -> String? {
        let lowered = text.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            if candidate.lowercased() == lowered { return candidate }
            let distance = editDistance(Array(lowered.unicodeScalars), Array(candidate.lowercased().unicodeScalars))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(1, min(3, (max(text.count, best.name.count) + 2) / 4))
        return best.distance <= allowed ? best.name : nil
    }

    /// A hint naming the closest candidate, or (when `listing`) the valid values if there are few.
    package static func hint(for text: String, among candidates: [String], listing: Bool = false) -> String? {
        if let match = closest(to: text, among: candidates) { return "did you mean '\(match)'?" }
        guard listing, !candidates.isEmpty else { return nil }
        let shown = candidates.prefix(20).map { "'\($0)'" }.joined(separator: ", ")
        return "expected one of \(shown)\(candidates.count > 20 ? ", …" : "")"
    }

    /// Optimal string alignment distance (Levenshtein with adjacent transpositions), bounded in length.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        if abs(a.count - b.count) > 3 || a.count > 64 || b.count > 64 { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
