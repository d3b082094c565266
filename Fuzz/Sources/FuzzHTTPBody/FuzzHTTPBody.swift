// What the server reads of a request with its own code (the generated operations' JSON bodies are
// sent through the running server by schemathesis): a dataset append as JSON lines, JSON or CSV
// (`DatasetRows`, behind `POST …/datasets/{dataset}/rows`), and an upload's `Repr-Digest` field
// (`DigestField`). The first byte picks which, the rest is the body or the field. Rows read are
// compact JSON objects within the row limits, and read again as JSON lines or as a JSON array they
// are the same rows; a digest read is 32 bytes, and written as a field it reads back the same.

import ARVisSupport
import ARVisWire
import Foundation
import FuzzDriver

@_cdecl("FuzzHTTPBody_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

let contentTypes = ["application/x-ndjson", "application/json; charset=utf-8", "text/csv", "text/plain"]

func test(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let choice = Int(first) % (contentTypes.count + 1)
    guard choice < contentTypes.count else { return checkDigest(String(decoding: bytes.dropFirst(), as: UTF8.self)) }
    let contentType = contentTypes[choice]
    guard let rows = try? DatasetRows.read(Array(bytes.dropFirst()), contentType: contentType) else { return }
    for row in rows { check(row) }
    let lines = try? DatasetRows.read(Array(rows.joined(separator: "\n").utf8), contentType: "application/x-ndjson")
    FuzzDriver.require(lines == rows, "rows read again as JSON lines are other rows: \(rows.prefix(3))")
    let array = try? DatasetRows.read(Array("[\(rows.joined(separator: ","))]".utf8), contentType: "application/json")
    FuzzDriver.require(rows.isEmpty || array == rows, "rows read again as a JSON array are other rows")
}

/// A row is a compact JSON object of at most 64 scalar columns, as it is stored and sent.
func check(_ row: String) {
    guard case .object(let columns)? = try? JSONDecoder().decode(JSONValue.self, from: Data(row.utf8)) else {
        return FuzzDriver.require(false, "a row read is not a JSON object: \(row.prefix(200))")
    }
    FuzzDriver.require(columns.count <= DatasetRows.maximumColumns, "a row has more columns than its limit")
    for (name, value) in columns {
        FuzzDriver.require((1...200).contains(name.count), "a column name is outside 1 to 200 characters")
        switch value {
        case .null, .bool: break
        case .number(let number): FuzzDriver.require(number.isFinite, "a row holds a number that is not finite")
        case .string(let text):
            FuzzDriver.require(text.count <= DatasetRows.maximumStringLength, "a row holds a string past its limit")
        case .array, .object: FuzzDriver.require(false, "a row holds a value that is not a scalar")
        }
    }
}

/// A `Repr-Digest` field: 32 bytes or nothing, and the field written of them reads back to them.
func checkDigest(_ field: String) {
    guard case .sha256(let bytes) = DigestField(parsing: field) else { return }
    FuzzDriver.require(bytes.count == 32, "a SHA-256 of \(bytes.count) bytes was read")
    FuzzDriver.require(
        DigestField(parsing: DigestField.value(sha256: bytes)) == .sha256(bytes),
        "a digest written reads back otherwise")
}
