import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HTTPTypes
import Hummingbird

/// `POST` and `GET /api/v1/projects/{project}/datasets/{dataset}/rows`: rows go in as JSON lines,
/// JSON or CSV, are kept as compact JSON objects, and come out byte for byte as the live streams
/// send them.
struct DatasetRoutes: Sendable {
    let api: ARVisAPI

    /// The largest body of one append.
    static let maximumBodyBytes = 1_000_000
    /// The most rows of one append.
    static let maximumRows = 10_000

    func register(on router: Router<ServerContext>) {
        let rows = "/api/v1/projects/{project}/datasets/{dataset}/rows"
        router.post(RouterPath(rows)) { request, context in try await self.append(request, context) }
        router.get(RouterPath(rows)) { request, context in try await self.list(request, context) }
    }

    private func dataset(_ context: ServerContext) throws -> String {
        let name = try context.parameters.require("dataset")
        guard ItemName.isValid(name) else {
            throw APIError.badRequest(
                "a dataset name is 1 to 100 letters, digits, '_' or '-', starting with a letter or digit")
        }
        return name
    }

    private func append(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await api.access(
            try context.parameters.require("project"), needs: .editor)
        let name = try dataset(context)
        let bytes = try await request.bodyBytes(
            upTo: Self.maximumBodyBytes,
            orThrow: APIError(
                .contentTooLarge, "tooLarge",
                "an append is at most \(Self.maximumBodyBytes / 1_000_000) MB; send more requests"))
        let rows = try RowReader.rows(bytes, contentType: request.headers[.contentType])
        guard !rows.isEmpty else { throw APIError.invalid("noRows", "the body holds no rows") }
        guard rows.count <= Self.maximumRows else {
            throw APIError(.contentTooLarge, "tooLarge", "an append is at most \(Self.maximumRows) rows")
        }
        try await api.requireQuota(.rows(rows.count), projectID: access.project.id)
        let stored = try await api.store.appendRows(projectID: access.project.id, dataset: name, rows)
        let body =
            "{\"appended\":\(stored.count),\"first\":\(stored.first?.sequence ?? 0),\"last\":\(stored.last?.sequence ?? 0)}"
        return Response(
            status: .created, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    private func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let access = try await api.access(
            try context.parameters.require("project"))
        let name = try dataset(context)
        let query = request.uri.queryParameters
        func number<T: LosslessStringConvertible>(_ key: String, _ type: T.Type) throws -> T? {
            guard let text = query[Substring(key)] else { return nil }
            guard let value = T(String(text)) else { throw APIError.badRequest("\(key) is a number") }
            return value
        }
        let last = try number("last", Int.self) ?? DatasetLink.defaultRows
        let seconds = try number("seconds", Double.self)
        let after = try number("after", Int64.self) ?? 0
        guard (1...DatasetLink.largestRows).contains(last), after >= 0,
            seconds.map({ $0.isFinite && $0 > 0 && $0 <= 31_536_000 }) ?? true
        else {
            throw APIError.badRequest(
                "last is 1 to \(DatasetLink.largestRows), seconds more than 0 and at most a year, after 0 or more")
        }
        let rows = try await api.store.rows(
            projectID: access.project.id, dataset: name, last: last,
            since: seconds.map { Date().addingTimeInterval(-$0) }, after: after)
        let body = LiveMessages.rowList(rows)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// Reads an append's body into rows, each a compact JSON object of at most ``maximumColumns``
/// scalar values.
enum RowReader {
    /// The most columns of a row.
    static let maximumColumns = 64
    /// The longest string value, in characters.
    static let maximumStringLength = 1_000

    /// - Throws: ``APIError`` `415` for another content type, `422` (located by row) for a row that
    ///   is not one.
    static func rows(_ body: [UInt8], contentType: String?) throws -> [String] {
        let type =
            contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let text = String(validating: body, as: UTF8.self) else {
            throw APIError.invalid("notUTF8", "the body is not UTF-8 text")
        }
        switch type {
        case "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/json-seq":
            return try text.split(whereSeparator: \.isNewline).enumerated().compactMap { index, line in
                line.allSatisfy(\.isWhitespace) ? nil : try row(json: Data(line.utf8), at: "line \(index + 1)")
            }
        case "application/json":
            let value: JSONValue
            do { value = try JSONDecoder().decode(JSONValue.self, from: Data(body)) } catch {
                throw APIError.invalid("invalidRow", "the body is not JSON: \(error.localizedDescription)")
            }
            let items = value.array ?? [value]
            return try items.enumerated().map { try row(object: $1, at: "row \($0 + 1)") }
        case "text/csv":
            return try CSVTable.rows(text).map { try row(object: $0.values, at: "line \($0.line)") }
        default:
            throw APIError(
                .unsupportedMediaType, "unsupportedMediaType",
                "send rows as application/x-ndjson, application/json or text/csv")
        }
    }

    private static func row(json: Data, at location: String) throws -> String {
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: json) } catch {
            throw APIError.invalid("invalidRow", "\(location) is not a JSON object")
        }
        return try row(object: value, at: location)
    }

    private static func row(object: JSONValue, at location: String) throws -> String {
        guard let values = object.object else {
            throw APIError.invalid("invalidRow", "\(location) is not an object of column to value")
        }
        guard values.count <= maximumColumns else {
            throw APIError.invalid(
                "invalidRow", "\(location) has \(values.count) columns; a row has at most \(maximumColumns)")
        }
        for (column, value) in values {
            guard (1...200).contains(column.count) else {
                throw APIError.invalid("invalidRow", "\(location): a column name is 1 to 200 characters")
            }
            switch value {
            case .null, .bool: break
            case .string(let text) where text.count <= maximumStringLength: break
            case .number(let number) where number.isFinite: break
            default:
                throw APIError.invalid(
                    "invalidRow",
                    "\(location): \"\(column.prefix(40))\" is a string of at most \(maximumStringLength) characters, a finite number, a boolean or null"
                )
            }
        }
        return try JSONText.encode(values)
    }
}

/// CSV (RFC 4180) with a header row: quoted fields may hold commas, quotes (doubled) and line breaks.
/// A cell that reads as a finite number becomes a number, an empty one null.
enum CSVTable {
    /// The rows as column → value, each with the line it starts on.
    /// - Throws: ``APIError`` `422` for an unterminated quote or a row with more cells than the header.
    static func rows(_ text: String) throws -> [(line: Int, values: JSONValue)] {
        let records = try records(text)
        guard let header = records.first?.cells else { return [] }
        return try records.dropFirst().compactMap { record in
            if record.cells.count == 1, record.cells[0].isEmpty { return nil }
            guard record.cells.count <= header.count else {
                throw APIError.invalid(
                    "invalidRow",
                    "line \(record.line) has \(record.cells.count) cells; the header names \(header.count) columns")
            }
            var values: [String: JSONValue] = [:]
            for (column, cell) in zip(header, record.cells) { values[column] = value(cell) }
            return (record.line, .object(values))
        }
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

    private static func records(_ text: String) throws -> [(line: Int, cells: [String])] {
        var records: [(Int, [String])] = []
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var start = 1
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
            case "\"" where cell.isEmpty: quoted = true
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
            throw APIError.invalid("invalidRow", "the quoted cell that starts on line \(line) never ends")
        }
        if !cell.isEmpty || !cells.isEmpty {
            cells.append(cell)
            records.append((start, cells))
        }
        return records
    }
}
