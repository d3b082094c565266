public import ARVisSupport
import Foundation

/// An error reading a dataset append: a body that is not rows.
public typealias RowError = ModuleError<RowErrorDomain>

/// The codes of ``RowError``.
public enum RowErrorDomain {}

extension ErrorCode<RowErrorDomain> {
    /// The body is not UTF-8 text.
    public static let notUTF8 = Self("notUTF8")
    /// A row is not a JSON object of at most ``DatasetRows/maximumColumns`` scalars, or the CSV is broken.
    public static let invalidRow = Self("invalidRow")
    /// The content type is not one rows are sent as.
    public static let unsupportedMediaType = Self("unsupportedMediaType")
}

/// Reads the body of a dataset append (`POST …/datasets/{dataset}/rows`) into rows, each a compact
/// JSON object (``JSONText``) of at most ``maximumColumns`` scalar values: JSON lines, a JSON object
/// or array of them, or CSV with a header row.
///
/// ```swift
/// let rows = try DatasetRows.read(Array("t,v\n1,2\n".utf8), contentType: "text/csv")
/// // ["{\"t\":1,\"v\":2}"]
/// ```
public enum DatasetRows {
    /// The most columns of a row.
    public static let maximumColumns = 64
    /// The longest string value, in characters.
    public static let maximumStringLength = 1_000
    /// The most bytes of a row, as compact JSON (the columns and values above allow far more: a
    /// row is a reading, not a document).
    public static let maximumRowBytes = 8_192

    /// The rows of `body`, sent as `contentType` (its parameters ignored).
    /// - Throws: ``RowError`` `unsupportedMediaType` for a type other than JSON lines, JSON or CSV,
    ///   `notUTF8`, or `invalidRow` (located by line or row) for a row that is not one.
    public static func read(_ body: [UInt8], contentType: String?) throws(RowError) -> [String] {
        let type =
            contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let text = String(validating: body, as: UTF8.self) else {
            throw RowError(.notUTF8, "the body is not UTF-8 text")
        }
        switch type {
        case "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/json-seq":
            return try lines(body)
        case "application/json":
            let value: JSONValue
            do { value = try JSONDecoder().decode(JSONValue.self, from: Data(body)) } catch {
                throw RowError(.invalidRow, "the body is not JSON: \(error.localizedDescription)")
            }
            let items = value.array ?? [value]
            var rows: [String] = []
            for (index, item) in items.enumerated() { rows.append(try row(object: item, at: "row \(index + 1)")) }
            return rows
        case "text/csv":
            var rows: [String] = []
            for record in try CSVTable.rows(text) {
                rows.append(try row(object: record.values, at: "line \(record.line)"))
            }
            return rows
        default:
            throw RowError(
                .unsupportedMediaType, "send rows as application/x-ndjson, application/json or text/csv")
        }
    }

    /// JSON lines: split at line feeds only (a string may hold U+2028 or U+0085, which Swift counts
    /// as line breaks and JSON keeps raw), blank lines skipped, a JSON text sequence's record
    /// separator (RFC 7464) dropped before its record.
    private static func lines(_ body: [UInt8]) throws(RowError) -> [String] {
        var rows: [String] = []
        for (index, line) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let record = line.first == 0x1E ? line.dropFirst() : line
            guard record.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            rows.append(try row(json: Data(record), at: "line \(index + 1)"))
        }
        return rows
    }

    private static func row(json: Data, at location: String) throws(RowError) -> String {
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: json) } catch {
            throw RowError(.invalidRow, "\(location) is not a JSON object")
        }
        return try row(object: value, at: location)
    }

    private static func row(object: JSONValue, at location: String) throws(RowError) -> String {
        guard let values = object.object else {
            throw RowError(.invalidRow, "\(location) is not an object of column to value")
        }
        guard values.count <= maximumColumns else {
            throw RowError(
                .invalidRow, "\(location) has \(values.count) columns; a row has at most \(maximumColumns)")
        }
        for (column, value) in values {
            guard (1...200).contains(column.count) else {
                throw RowError(.invalidRow, "\(location): a column name is 1 to 200 characters")
            }
            switch value {
            case .null, .bool: break
            case .string(let text) where text.count <= maximumStringLength: break
            case .number(let number) where number.isFinite: break
            default:
                throw RowError(
                    .invalidRow,
                    "\(location): \"\(column.prefix(40))\" is a string of at most \(maximumStringLength) characters, a finite number, a boolean or null"
                )
            }
        }
        // Every value was checked finite above: the encoding cannot fail.
        let text = JSONText.text(values)
        guard text.utf8.count <= maximumRowBytes else {
            throw RowError(
                .invalidRow,
                "\(location) is \(text.utf8.count) bytes as JSON; a row is at most \(maximumRowBytes)")
        }
        return text
    }
}

/// CSV (RFC 4180) with a header row: quoted fields may hold commas, quotes (doubled) and line breaks.
/// A cell that reads as a finite number becomes a number, an empty one null.
enum CSVTable {
    /// The rows as column → value, each with the line it starts on.
    /// - Throws: ``RowError`` `invalidRow` for an unterminated quote or a row with more cells than the
    ///   header.
    static func rows(_ text: String) throws(RowError) -> [(line: Int, values: JSONValue)] {
        let records = try records(text)
        guard let header = records.first?.cells else { return [] }
        var rows: [(line: Int, values: JSONValue)] = []
        for record in records.dropFirst() where !(record.cells.count == 1 && record.cells[0].isEmpty) {
            guard record.cells.count <= header.count else {
                throw RowError(
                    .invalidRow,
                    "line \(record.line) has \(record.cells.count) cells; the header names \(header.count) columns")
            }
            var values: [String: JSONValue] = [:]
            for (column, cell) in zip(header, record.cells) { values[column] = value(cell) }
            rows.append((record.line, .object(values)))
        }
        return rows
    }

    private static func value(_ cell: String) -> JSONValue {
        if cell.isEmpty { return .null }
        if let number = Double(cell), number.isFinite,
            cell.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true
        {
            return .number(number)
        }
        return .string(cell)
    }

    private static func records(_ text: String) throws(RowError) -> [(line: Int, cells: [String])] {
        var records: [(Int, [String])] = []
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var start = 1
        var quoteLine = 1
        var characters = text.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    quoted = false
                    afterQuote = true
                } else {
                    cell.append(character)
                }
                if character.isNewline { line += 1 }
                continue
            }
            switch character {
            case "\"" where afterQuote:
                cell.append("\"")
                quoted = true
                afterQuote = false
            case "\"" where cell.isEmpty:
                quoted = true
                quoteLine = line
            case ",":
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                cells.append(cell)
                records.append((start, cells))
                cells = []
                cell = ""
                afterQuote = false
                line += 1
                start = line
            default:
                cell.append(character)
                afterQuote = false
            }
        }
        guard !quoted else {
            throw RowError(.invalidRow, "the quoted cell that starts on line \(quoteLine) never ends")
        }
        if !cell.isEmpty || !cells.isEmpty {
            cells.append(cell)
            records.append((start, cells))
        }
        return records
    }
}
