import ARVisSupport
import Foundation

extension IARVisLink {
    /// What an `iARVis:` link does, as iARVis's URL service reads it.
    public enum Action: Sendable, Hashable {
        /// `iARVis://link?href=`: open a web page.
        case link(href: String)
        /// `iARVis://openComponent?…`: open a component as a child widget of the widget tapped.
        case openComponent(OpenComponent)
        /// `iARVis://openVisConfig?(url=|json=)`: load a whole environment.
        case openVisConfig(Source)

        /// `link`, `openComponent` or `openVisConfig`.
        public var name: String {
            switch self {
            case .link: "link"
            case .openComponent: "openComponent"
            case .openVisConfig: "openVisConfig"
            }
        }
    }

    /// Where an opened component or environment comes from.
    public enum Source: Sendable, Hashable {
        /// Fetched from this URL.
        case url(String)
        /// This JSON, embedded in the link.
        case json(String)

        /// The URL or the JSON text: what iARVis keys an opened child by.
        public var key: String {
            switch self {
            case .url(let url): url
            case .json(let json): json
            }
        }
    }

    /// An `openComponent` link: the component and how its child widget is placed.
    public struct OpenComponent: Sendable, Hashable {
        /// The component.
        public var source: Source
        /// Where the child attaches to the widget tapped (default `auto`).
        public var anchor: AnchorPoint
        /// Its offset in metres in the parent's plane (default `[0, 0, 0]`).
        public var relativePosition: [Double]
        /// Its layout size in points (default: the widget default, `[1024, 768]`).
        public var size: [Double]?
        /// Whether its content scrolls (default `true`).
        public var isScrollEnabled: Bool
    }

    /// Why a link cannot be read: a message and, when known, how to fix it.
    public struct Problem: Error, Sendable, Hashable {
        /// What is wrong.
        public var message: String
        /// How to fix it.
        public var hint: String?
    }

    /// The actions iARVis implements.
    public static let actions = ["link", "openComponent", "openVisConfig"]

    /// Whether `url` has the `iARVis` scheme (in any case).
    public static func isIARVis(_ url: String) -> Bool {
        LinkPolicy.scheme(of: url) == "iarvis"
    }

    /// Reads an `iARVis:` link.
    /// - Throws: ``Problem`` for an unknown action, a missing, repeated, unknown or malformed
    ///   parameter, or percent-encoding that does not decode to UTF-8.
    public static func parse(_ url: String) throws(Problem) -> Action {
        guard isIARVis(url), let colon = url.firstIndex(of: ":") else {
            throw Problem(
                message: "\"\(url.prefix(40))\" is not an iARVis link", hint: "iARVis links begin with iARVis://")
        }
        var rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else {
            throw Problem(
                message: "an iARVis link is iARVis://ACTION?PARAMETERS", hint: "write iARVis:// before the action")
        }
        rest = rest.dropFirst(2)
        let action = rest.prefix { $0 != "?" && $0 != "/" && $0 != "#" }
        let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] } ?? ""
        let parameters = try Parameters(query: String(query.prefix { $0 != "#" }))
        switch action.lowercased() {
        case "link":
            try parameters.allow(["href"], action: "link")
            let href = try parameters.required("href", action: "link")
            guard LinkPolicy.scheme(of: href) != nil else {
                throw Problem(
                    message: "href \"\(href.prefix(80))\" is not an absolute URL",
                    hint: "give a whole URL such as https://example.org, percent-encoded")
            }
            return .link(href: href)
        case "opencomponent":
            try parameters.allow(
                ["url", "json", "anchor", "relativePosition", "size", "isScrollEnabled"], action: "openComponent")
            return .openComponent(
                OpenComponent(
                    source: try parameters.source(action: "openComponent"),
                    anchor: try parameters.anchor(),
                    relativePosition: try parameters.numbers("relativePosition", count: 3, positive: false) ?? [
                        0, 0, 0,
                    ],
                    size: try parameters.numbers("size", count: 2, positive: true),
                    isScrollEnabled: try parameters.flag("isScrollEnabled") ?? true))
        case "openvisconfig":
            try parameters.allow(["url", "json"], action: "openVisConfig")
            return .openVisConfig(try parameters.source(action: "openVisConfig"))
        default:
            let known = actions.map { "'\($0)'" }.joined(separator: ", ")
            throw Problem(
                message: "unknown iARVis action \"\(action.prefix(40))\"",
                hint: Suggestion.closest(to: String(action), among: actions).map { "did you mean '\($0)'?" }
                    ?? "the actions are \(known)")
        }
    }

    /// A link's query: names to percent-decoded values.
    private struct Parameters {
        var values: [String: String] = [:]

        init(query: String) throws(Problem) {
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                guard values[name] == nil else {
                    throw Problem(
                        message: "the parameter \(name.prefix(40)) is given twice", hint: "give each parameter once")
                }
                guard let value = IARVisLink.percentDecoded(parts.count == 2 ? parts[1] : "") else {
                    throw Problem(
                        message: "the value of \(name.prefix(40)) has percent-encoding that does not decode to UTF-8",
                        hint: "encode each byte as % and two hex digits")
                }
                values[name] = value
            }
        }

        func allow(_ names: [String], action: String) throws(Problem) {
            for name in values.keys.sorted() where !names.contains(name) {
                let hint =
                    Suggestion.closest(to: name, among: names).map { "did you mean '\($0)'?" }
                    ?? "\(action) takes " + names.joined(separator: ", ")
                throw Problem(message: "\(action) has no parameter \"\(name.prefix(40))\"", hint: hint)
            }
        }

        func required(_ name: String, action: String) throws(Problem) -> String {
            guard let value = values[name], !value.isEmpty else {
                throw Problem(message: "\(action) needs \(name)=", hint: nil)
            }
            return value
        }

        /// `url=` or `json=`, exactly one.
        func source(action: String) throws(Problem) -> Source {
            switch (values["url"], values["json"]) {
            case (let url?, nil):
                guard let scheme = LinkPolicy.scheme(of: url), scheme == "http" || scheme == "https" else {
                    throw Problem(
                        message: "\(action)'s url \"\(url.prefix(80))\" is not an http or https URL",
                        hint: "give the JSON file's web address")
                }
                return .url(url)
            case (nil, let json?):
                guard !json.isEmpty else {
                    throw Problem(message: "\(action)'s json= is empty", hint: "percent-encode the JSON after json=")
                }
                return .json(json)
            case (.some, .some): throw Problem(message: "\(action) takes url= or json=, not both", hint: nil)
            case (nil, nil):
                throw Problem(
                    message: "\(action) needs url= or json=",
                    hint: "json= embeds the percent-encoded JSON; url= names a file to fetch")
            }
        }

        func anchor() throws(Problem) -> AnchorPoint {
            guard let text = values["anchor"] else { return .auto }
            guard let anchor = AnchorPoint(rawValue: text), anchor.objectFace == nil, anchor != .cover else {
                let names = ["auto", "top", "bottom", "leading", "trailing", "center"]
                throw Problem(
                    message: "anchor \"\(text.prefix(40))\" is not an anchor point of a child widget",
                    hint: Suggestion.closest(to: text, among: names).map { "did you mean '\($0)'?" } ?? "use one of "
                        + names.joined(separator: ", "))
            }
            return anchor
        }

        /// A JSON array of `count` finite numbers (positive when `positive`), or `nil` when absent.
        func numbers(_ name: String, count: Int, positive: Bool) throws(Problem) -> [Double]? {
            guard let text = values[name] else { return nil }
            let shape = count == 3 ? "[x, y, z] in metres" : "[width, height] in points"
            guard let numbers = try? JSONDecoder().decode([Double].self, from: Data(text.utf8)),
                numbers.count == count,
                numbers.allSatisfy({ $0.isFinite && abs($0) <= 100_000 && (!positive || $0 > 0) })
            else {
                throw Problem(
                    message: "\(name) \"\(text.prefix(40))\" is not \(shape)",
                    hint: "write \(name)=" + (count == 3 ? "[0,0.1,0]" : "[600,400]"))
            }
            return numbers
        }

        func flag(_ name: String) throws(Problem) -> Bool? {
            guard let text = values[name] else { return nil }
            switch text.lowercased() {
            case "true": return true
            case "false": return false
            default: throw Problem(message: "\(name) \"\(text.prefix(40))\" is not true or false", hint: nil)
            }
        }
    }

    /// `text` with every `%XX` decoded, or `nil` when a `%` is not followed by two hex digits or the
    /// bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        PercentDecoding.bytes(text, strict: true).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
