import ARVisSpec
import Foundation

/// A tree species of the catalog.
public struct Species: Sendable, Hashable, Identifiable, Codable {
    /// The scientific name, "Genus species".
    public var latinName: String
    /// Common names in English, most usual first.
    public var englishNames: [String]
    /// Common names in Portuguese, most usual first.
    public var portugueseNames: [String]
    /// The recommended distance between planted trees, metres.
    public var spacing: Double
    /// The usual height of a mature tree, metres.
    public var minimumHeight: Double
    /// The height mature trees reach at most, metres.
    public var maximumHeight: Double
    /// A sentence or two on the tree and where it is planted.
    public var description: String
    /// Where the figures come from.
    public var source: String
    /// The shape of a mature crown, for the tree's model.
    public var crown: CrownForm

    /// The Latin name identifies a species.
    public var id: String { latinName }

    /// Every name, Latin first.
    public var names: [String] { [latinName] + englishNames + portugueseNames }

    /// Creates a species entry.
    public init(
        latinName: String, englishNames: [String], portugueseNames: [String], spacing: Double, minimumHeight: Double,
        maximumHeight: Double, description: String, source: String, crown: CrownForm = .rounded
    ) {
        self.latinName = latinName
        self.englishNames = englishNames
        self.portugueseNames = portugueseNames
        self.spacing = spacing
        self.minimumHeight = minimumHeight
        self.maximumHeight = maximumHeight
        self.description = description
        self.source = source
        self.crown = crown
    }
}

/// The shape of a tree's mature crown.
public enum CrownForm: String, Sendable, Hashable, Codable, CaseIterable {
    /// A cone from low on the trunk to the top: most pines and cypresses when young.
    case conical
    /// A broad dome: oaks, chestnuts, ashes.
    case rounded
    /// A flat, wide top on a long bare trunk: the stone pine's.
    case umbrella
    /// Narrow and upright: the Italian cypress.
    case columnar
}

/// The species ARVis knows, and search over their names.
public struct SpeciesCatalog: Sendable {
    /// The species, in Latin-name order.
    public let species: [Species]
    /// Folded names of each species, for search.
    private let foldedNames: [[String]]

    /// Creates a catalog of `species`.
    public init(_ species: [Species]) {
        self.species = species.sorted { $0.latinName < $1.latinName }
        foldedNames = self.species.map { $0.names.map(Self.fold) }
    }

    /// The bundled catalog: trees of Portuguese and Iberian reforestation.
    public static let standard = SpeciesCatalog(SpeciesCatalog.iberianSpecies)

    /// How well a species matched a query; smaller is better.
    public enum MatchQuality: Int, Sendable, Comparable {
        /// A name equals the query.
        case exact
        /// A name starts with the query.
        case prefix
        /// A word of a name starts with the query.
        case wordPrefix
        /// A name contains the query.
        case substring
        /// A name, a word of it or its start is within a few typing mistakes of the query.
        case fuzzy

        /// Better matches sort first.
        public static func < (lhs: MatchQuality, rhs: MatchQuality) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Species whose Latin or common names match `query`, best first: ignoring case and accents,
    /// exact, then prefix, word prefix, substring and fuzzy matches (one typing mistake per four
    /// letters, up to three). An empty query lists every species.
    public func search(_ query: String) -> [(species: Species, quality: MatchQuality)] {
        let folded = Self.fold(query)
        guard !folded.isEmpty else { return species.map { ($0, .exact) } }
        let matches = species.indices.compactMap { index -> (Species, MatchQuality)? in
            foldedNames[index].compactMap { Self.quality(of: $0, for: folded) }.min().map { (species[index], $0) }
        }
        return matches.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element)
    }

    /// The species `name` denotes: the only species with a name equal to it, else the only one with a
    /// name starting with it, else the only one with a word of a name starting with it ("suber"); nil
    /// when none or several match that well.
    public func species(named name: String) -> Species? {
        let matches = search(name)
        for quality in [MatchQuality.exact, .prefix, .wordPrefix] {
            let found = matches.filter { $0.quality == quality }
            if !found.isEmpty { return found.count == 1 ? found[0].species : nil }
        }
        return nil
    }

    /// How a name given by a person resolves against the catalog.
    public enum Resolution: Sendable {
        /// ``species(named:)`` found it.
        case found(Species)
        /// Not a name, but a typo with one clear best match, taken as that species.
        case forgiven(Species)
        /// Several species match as well; the best few, to offer.
        case ambiguous([Species])
        /// Nothing is called anything like that.
        case unknown

        /// The species, found or forgiven.
        public var species: Species? {
            switch self {
            case .found(let species), .forgiven(let species): species
            case .ambiguous, .unknown: nil
            }
        }
    }

    /// What `name` denotes: the species it names; a typo's one clear best match (as `arvis species`
    /// forgives it); or the candidates when no single species stands out.
    public func resolve(_ name: String) -> Resolution {
        if let found = species(named: name) { return .found(found) }
        let matches = search(name)
        guard let best = matches.first else { return .unknown }
        if matches.count == 1 || matches[1].quality > best.quality { return .forgiven(best.species) }
        return .ambiguous(matches.prefix(5).map(\.species))
    }

    /// `text` lowercased, without accents, with runs of spaces and hyphens as single spaces.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).joined(separator: " ")
    }

    /// How `name` (folded) matches `query` (folded), if at all.
    static func quality(of name: String, for query: String) -> MatchQuality? {
        if name == query { return .exact }
        if name.hasPrefix(query) { return .prefix }
        let words = name.split(separator: " ")
        if words.contains(where: { $0.hasPrefix(query) }) { return .wordPrefix }
        if name.contains(query) { return .substring }
        let allowed = min(3, query.count / 4)
        guard allowed > 0 else { return nil }
        let target = Array(query.unicodeScalars)
        let pieces =
            [Substring(name)] + words + [Substring(name.prefix(query.count))] + words.map { $0.prefix(query.count) }
        let close = pieces.contains { Suggestion.editDistance(Array($0.unicodeScalars), target) <= allowed }
        return close ? .fuzzy : nil
    }
}
