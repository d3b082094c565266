import ARVisSupport

/// The tokens of USD's text format (`.usda`), with the line each starts on.
struct USDAToken {
    enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case asset(String)
        case path(String)
        case number(Double)
        case punctuation(UInt8)
        case end
    }
    var kind: Kind
    var line: Int
}

/// Splits `.usda` text into tokens: identifiers (namespaced, with dots: `inputs:file.connect`),
/// numbers, strings in every quoting (`"…"`, `'…'`, `"""…"""`), asset paths (`@…@`, `@@@…@@@`),
/// prim paths (`<…>`) and punctuation. `#` starts a comment.
struct USDATokenizer {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> ModelError { ModelError(.invalid, message, location: "line \(line)") }

    mutating func next() throws(ModelError) -> USDAToken {
        skipSpaceAndComments()
        guard i < bytes.count else { return USDAToken(kind: .end, line: line) }
        let start = line
        let c = bytes[i]
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return USDAToken(kind: .string(try quoted(c)), line: start)
        case UInt8(ascii: "@"): return USDAToken(kind: .asset(try asset()), line: start)
        case UInt8(ascii: "<"):
            guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else {
                throw error("a path <… is not closed")
            }
            defer { i = close + 1 }
            return USDAToken(kind: .path(String(decoding: bytes[(i + 1)..<close], as: UTF8.self)), line: start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return USDAToken(kind: .number(try number()), line: start)
        default:
            if Self.isIdentifierStart(c) {
                let begin = i
                while i < bytes.count,
                    Self.isIdentifierStart(bytes[i]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i])
                        || bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: ".")
                        || bytes[i] == UInt8(ascii: "!")
                { i += 1 }
                let text = String(decoding: bytes[begin..<i], as: UTF8.self)
                switch text {
                case "inf": return USDAToken(kind: .number(.infinity), line: start)
                case "nan": return USDAToken(kind: .number(.nan), line: start)
                default: return USDAToken(kind: .identifier(text), line: start)
                }
            }
            i += 1
            return USDAToken(kind: .punctuation(c), line: start)
        }
    }

    private static func isIdentifierStart(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
            || c == UInt8(ascii: "_") || c >= 0x80
            || c == UInt8(ascii: "!")
    }

    private mutating func skipSpaceAndComments() {
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\n") {
                line += 1
                i += 1
            } else if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                i += 1
            } else if c == UInt8(ascii: "#") {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            } else {
                return
            }
        }
    }

    private mutating func number() throws(ModelError) -> Double {
        let begin = i
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            i += 1
            if i + 3 <= bytes.count, bytes[i..<i + 3].elementsEqual("inf".utf8) {
                i += 3
                return bytes[begin] == UInt8(ascii: "-") ? -.infinity : .infinity
            }
        }
        while i < bytes.count,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) || bytes[i] == UInt8(ascii: ".")
                || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")
                || ((bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+"))
                    && (bytes[i - 1] == UInt8(ascii: "e") || bytes[i - 1] == UInt8(ascii: "E")))
        { i += 1 }
        guard let value = Double(String(decoding: bytes[begin..<i], as: UTF8.self)) else {
            throw error("'\(String(decoding: bytes[begin..<max(i, begin + 1)], as: UTF8.self))' is not a number")
        }
        return value
    }

    private mutating func quoted(_ quote: UInt8) throws(ModelError) -> String {
        let triple = i + 2 < bytes.count && bytes[i + 1] == quote && bytes[i + 2] == quote
        i += triple ? 3 : 1
        var out: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            if c == quote && (!triple || (i + 2 < bytes.count && bytes[i + 1] == quote && bytes[i + 2] == quote)) {
                i += triple ? 3 : 1
                return String(decoding: out, as: UTF8.self)
            }
            if c == UInt8(ascii: "\n") {
                guard triple else { throw error("a string is not closed on its line") }
                line += 1
            }
            if c == UInt8(ascii: "\\"), i + 1 < bytes.count {
                i += 1
                switch bytes[i] {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                default: out.append(bytes[i])
                }
            } else {
                out.append(c)
            }
            i += 1
        }
        throw error("a string is not closed")
    }

    private mutating func asset() throws(ModelError) -> String {
        let triple = i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "@") && bytes[i + 2] == UInt8(ascii: "@")
        let delimiter = triple ? Array("@@@".utf8) : [UInt8(ascii: "@")]
        i += delimiter.count
        let begin = i
        while i + delimiter.count <= bytes.count {
            if bytes[i..<i + delimiter.count].elementsEqual(delimiter) {
                defer { i += delimiter.count }
                return String(decoding: bytes[begin..<i], as: UTF8.self)
            }
            if bytes[i] == UInt8(ascii: "\n") { throw error("an asset path @… is not closed on its line") }
            i += 1
        }
        throw error("an asset path @… is not closed")
    }
}
