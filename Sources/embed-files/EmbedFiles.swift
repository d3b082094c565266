import Foundation

/// Writes a Swift file holding the text of the files it is given, by their paths relative to a
/// folder, so a binary serves them with nothing beside it. Run by the `EmbedFiles` build-tool plugin.
///
/// Usage: `embed-files OUTPUT.swift ROOT FILE...` (every FILE inside ROOT, UTF-8 text).
@main
enum EmbedFiles {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count >= 2, let output = arguments.first else {
            FileHandle.standardError.write(Data("usage: embed-files OUTPUT.swift ROOT FILE...\n".utf8))
            exit(2)
        }
        let root = URL(fileURLWithPath: arguments.dropFirst().first ?? ".").standardizedFileURL.path + "/"
        var entries: [String] = []
        for file in arguments.dropFirst(2).sorted() {
            let path = URL(fileURLWithPath: file).standardizedFileURL.path
            guard path.hasPrefix(root) else { throw EmbedError("\(file) is not inside \(root)") }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let key = path.dropFirst(root.count).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            entries.append("        \"\(key)\": \(literal(text)),\n")
        }
        let swift = """
            // Generated at build time by the EmbedFiles plugin; not committed.

            /// The text of the files embedded at build time, by their paths in the target's folder.
            enum EmbeddedFiles {
                static let texts: [String: String] = [
            \(entries.joined())    ]
            }

            """
        try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    }

    /// `text` as a raw string literal whose delimiter (one `#` more than the longest run in it
    /// after a quote or a backslash) nothing inside it can close or escape.
    static func literal(_ text: String) -> String {
        var longest = 0
        var run: Int?
        for character in text {
            if character == "\"" || character == "\\" {
                run = 0
            } else if character == "#", let count = run {
                run = count + 1
                longest = max(longest, count + 1)
            } else {
                run = nil
            }
        }
        let hashes = String(repeating: "#", count: longest + 1)
        return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
    }
}

/// A file that cannot be embedded.
struct EmbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
