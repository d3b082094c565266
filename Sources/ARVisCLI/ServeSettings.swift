import ARVisSpec
import ArgumentParser
import Foundation
import Yams

/// `arvis serve`'s options from the environment and a config file, as an orchestrator sets them:
/// `--public-url` is also `ARVIS_PUBLIC_URL` and `public-url:` in the YAML file `--config` (or
/// `ARVIS_CONFIG`) names. The command line wins over the environment, which wins over the file.
///
/// The options are read from `serve`'s own definition, so every option, present and future, has its
/// variable and its key: a repeatable option takes a comma-separated variable or a YAML list, a
/// flag takes `true` or `false`.
enum ServeSettings {
    /// One option of `arvis serve`.
    struct Option: Equatable {
        /// Its long name, without the dashes.
        var name: String
        /// Whether it is a flag (takes no value).
        var isFlag: Bool
        /// Whether it may be given more than once.
        var isRepeating: Bool

        /// Its environment variable: `ARVIS_` and the name in capitals, `-` as `_`.
        var variable: String { "ARVIS_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
    }

    /// A setting that cannot be used, with where it came from.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// `arguments` (those after `serve`) with the options the environment and the config file set and
    /// the command line does not.
    static func arguments(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        options: [Option] = serveOptions
    ) throws -> [String] {
        var given = Set(arguments.compactMap(longName))
        var added: [String] = []
        for option in options where !given.contains(option.name) {
            guard let value = environment[option.variable] else { continue }
            added += try values(option, fromVariable: value)
            given.insert(option.name)
        }
        let configPath = value(of: "config", in: arguments) ?? environment["ARVIS_CONFIG"]
        if let configPath {
            for (name, value) in try configFile(configPath, options: options) where !given.contains(name) {
                added += value
            }
        }
        return arguments + added
    }

    /// The long name of an argument such as `--port` or `--port=80`; `nil` for a value.
    private static func longName(_ argument: String) -> String? {
        guard argument.hasPrefix("--"), argument.count > 2 else { return nil }
        return String(argument.dropFirst(2).prefix { $0 != "=" })
    }

    /// The value of `--name VALUE` or `--name=VALUE` in `arguments`.
    private static func value(of name: String, in arguments: [String]) -> String? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" + name { return arguments.indices.contains(index + 1) ? arguments[index + 1] : nil }
            if argument.hasPrefix("--\(name)=") { return String(argument.dropFirst(name.count + 3)) }
        }
        return nil
    }

    private static func values(_ option: Option, fromVariable text: String) throws -> [String] {
        if option.isFlag { return try flag(option, text, from: option.variable) }
        let items = option.isRepeating ? text.split(separator: ",").map(String.init) : [text]
        return items.flatMap { ["--" + option.name, $0.trimmingCharacters(in: .whitespaces)] }
    }

    private static func flag(_ option: Option, _ text: String, from source: String) throws -> [String] {
        switch text.lowercased() {
        case "true", "1", "yes", "on": return ["--" + option.name]
        case "false", "0", "no", "off", "": return []
        default: throw Problem(description: "\(source) is a flag: true or false, not '\(text)'")
        }
    }

    /// The options the YAML mapping in `path` sets, as arguments, by name.
    static func configFile(_ path: String, options: [Option]) throws -> [(String, [String])] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read the config file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(description: "the config file \(path) is not UTF-8 text")
        }
        let document: Any?
        do { document = try Yams.load(yaml: text) } catch {
            throw Problem(description: "the config file \(path) is not YAML: \(error)")
        }
        guard let mapping = document as? [String: Any] else {
            throw Problem(
                description: "the config file \(path) is a mapping of option names to values, such as port: 8080")
        }
        let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        return try mapping.keys.sorted().map { key in
            guard let option = byName[key], key != "config" else {
                let names = options.map(\.name).filter { $0 != "config" }
                let hint = Suggestion.closest(to: key, among: names).map { "; did you mean '\($0)'?" } ?? ""
                throw Problem(description: "\(path): '\(key)' is not an option of arvis serve\(hint)")
            }
            return (key, try arguments(option, mapping[key] ?? "", in: path))
        }
    }

    private static func arguments(_ option: Option, _ value: Any, in path: String) throws -> [String] {
        let source = "\(path): \(option.name)"
        if option.isFlag {
            guard let flag = value as? Bool else { throw Problem(description: "\(source) is true or false") }
            return flag ? ["--" + option.name] : []
        }
        let items = (value as? [Any]) ?? [value]
        guard option.isRepeating || items.count == 1 else {
            throw Problem(description: "\(source) takes one value, not a list")
        }
        return try items.flatMap { item -> [String] in
            guard item is String || item is Int || item is Double else {
                throw Problem(description: "\(source) takes a value such as a word or a number")
            }
            return ["--" + option.name, "\(item)"]
        }
    }

    /// The options of `arvis serve`, read from argument-parser's description of the command (the
    /// JSON behind `--experimental-dump-help`).
    static let serveOptions: [Option] = {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable {
                    var kind: String
                    var name: String
                }
                var kind: String
                var isRepeating: Bool
                var names: [Name]?
            }
            var command: Command
        }
        let dump = try? JSONDecoder().decode(Dump.self, from: Data(ServeCommand._dumpHelp().utf8))
        return (dump?.command.arguments ?? []).compactMap { argument in
            guard argument.kind == "option" || argument.kind == "flag",
                let name = argument.names?.first(where: { $0.kind == "long" })?.name,
                !["help", "version", "experimental-dump-help"].contains(name)
            else { return nil }
            return Option(name: name, isFlag: argument.kind == "flag", isRepeating: argument.isRepeating)
        }
    }()
}
