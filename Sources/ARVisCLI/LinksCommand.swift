import ARVisSpec
import ARVisSupport
import ArgumentParser
import Foundation

/// `arvis links`: every link a spec makes, with its kind and target, following the chains that
/// `iARVis://openComponent?json=` and `openVisConfig?json=` links embed.
struct LinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "List every link of a spec: its kind and target, and the links of the widgets it opens.",
        discussion: """
            Links are Markdown links in texts and table cells, and the URLs taps and chart clicks open. \
            Kinds: web (http, https, mailto, relative), link (iARVis://link?href=), openComponent, \
            openVisConfig, other (a scheme ARVis does not follow) and invalid (an iARVis link that does \
            not read; `arvis validate` says why). A component or environment embedded with json= is \
            listed under its link, with its own links, as deep as the chain goes.

            Text output has one line per link, FILE:LINE:COL: KIND TARGET (PATH); JSON output is one \
            array of {file, line, column, path, url, kind, target, anchor, relativePosition, size, \
            isScrollEnabled, links}.

            Examples:
              arvis links ../shared/corpus/iarvis/environments/example1.json
              arvis links --format json tour.yaml
            """
    )

    @OptionGroup var reading: ReadingOptions

    @Option(help: "Output format: text or json.")
    var format: ValidateCommand.OutputFormat = .text

    @Argument(help: "A spec file (JSON or YAML; - reads standard input).")
    var file: String

    func run() throws {
        let read: ReadResult
        do {
            read = try SpecInput(path: file, maximumBytes: reading.maximumBytes).read(options: reading.readOptions)
        } catch {
            throw CommandFailure.usage("\(error.message)")
        }
        let entries = read.links.map { LinkEntry($0, depth: 0) }
        switch format {
        case .text:
            for entry in entries { try entry.write(indent: "") }
            let count = entries.reduce(0) { $0 + $1.count }
            Console.error("\(count) link\(count == 1 ? "" : "s")")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try Console.write(String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n")
        }
    }
}

/// One link, and the links inside what it embeds.
struct LinkEntry: Encodable {
    /// How deep embedded chains are followed (a chain deeper than this is cut, and says so).
    static let maximumDepth = 16

    var file: String?
    var line: Int
    var column: Int
    var path: String
    var url: String
    var kind: String
    var target: String
    var anchor: String?
    var relativePosition: [Double]?
    var size: [Double]?
    var isScrollEnabled: Bool?
    var links: [LinkEntry]

    init(_ link: SpecLink, depth: Int) {
        file = link.location.file
        line = link.location.line
        column = link.location.column
        path = link.path
        url = link.url
        links = []
        guard IARVisLink.isIARVis(link.url) else {
            kind = LinkPolicy.isNavigable(link.url) ? "web" : "other"
            target = link.url
            return
        }
        guard let action = link.action else {
            kind = "invalid"
            target = link.url
            return
        }
        kind = action.name
        switch action {
        case .link(let href):
            target = href
        case .openComponent(let open):
            target = Self.describe(open.source, as: .component)
            anchor = open.anchor.rawValue
            relativePosition = open.relativePosition
            size = open.size
            isScrollEnabled = open.isScrollEnabled
            links = Self.embedded(open.source, as: .component, depth: depth)
        case .openVisConfig(let source):
            target = Self.describe(source, as: .environment)
            links = Self.embedded(source, as: .environment, depth: depth)
        }
    }

    /// Links counted, these and the embedded ones.
    var count: Int { 1 + links.reduce(0) { $0 + $1.count } }

    func write(indent: String) throws {
        let place = [file, String(line), String(column)].compactMap { $0 }.joined(separator: ":")
        var details: [String] = []
        if let anchor { details.append("anchor \(anchor)") }
        if let relativePosition, relativePosition != [0, 0, 0] { details.append("at \(relativePosition)") }
        if let size { details.append("size \(size)") }
        if isScrollEnabled == false { details.append("no scrolling") }
        let extra = details.isEmpty ? "" : " [" + details.joined(separator: ", ") + "]"
        try Console.write("\(indent)\(place): \(kind) \(target)\(extra) (\(path.isEmpty ? "root" : path))\n")
        for link in links { try link.write(indent: indent + "    ") }
    }

    private static func describe(_ source: IARVisLink.Source, as kind: DocumentKind) -> String {
        switch source {
        case .url(let url): return url
        case .json(let json):
            let head =
                (try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))?.object?.keys.sorted().first.map {
                    " {\"\($0)\": …}"
                } ?? ""
            return "embedded \(kind.rawValue)\(head), \(json.utf8.count) bytes of JSON"
        }
    }

    private static func embedded(_ source: IARVisLink.Source, as kind: DocumentKind, depth: Int) -> [LinkEntry] {
        guard case .json(let json) = source, depth < maximumDepth else { return [] }
        let read = SpecReader.read(json: Data(json.utf8), file: nil, options: ReadOptions(kind: kind))
        return read.links.map { LinkEntry($0, depth: depth + 1) }
    }
}
