/// Where a live spec stream's client is: the version it holds and the last row it has of each
/// dataset.
///
/// Written `version=3&rows=sensor:120,door:7`: in the query of a new connection, and as the `id:` of
/// every Server-Sent Event, which a browser sends back as `Last-Event-ID` when it reconnects.
///
/// ```swift
/// let cursor = SpecCursor(lastEventID: "version=3&rows=sensor:120,door:7")
/// cursor.version                   // 3
/// cursor.rows                      // ["sensor": 120, "door": 7]
/// cursor.lastEventID               // "version=3&rows=door:7,sensor:120"
/// ```
public struct SpecCursor: Sendable, Equatable {
    /// The version the client holds, if it holds one.
    public var version: Int?
    /// The sequence number of the last row the client has, by dataset.
    public var rows: [String: Int64]

    /// A cursor at `version` and `rows`.
    public init(version: Int?, rows: [String: Int64] = [:]) {
        self.version = version
        self.rows = rows
    }

    /// The cursor of a query's `version` and `rows` parameters. What does not read is left out: a
    /// version that is not a whole number, a `rows` item that is not `<dataset>:<sequence ≥ 0>`.
    public init(version: String?, rows: String?) {
        self.version = version.flatMap { Int($0) }
        self.rows = [:]
        for item in (rows ?? "").split(separator: ",") {
            let parts = item.split(separator: ":")
            if parts.count == 2, let sequence = Int64(parts[1]), sequence >= 0 {
                self.rows[String(parts[0])] = sequence
            }
        }
    }

    /// The cursor a `Last-Event-ID` field names: ``lastEventID``'s form, read as a query is.
    public init(lastEventID: String) {
        var query: [Substring: Substring] = [:]
        for pair in lastEventID.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { query[parts[0]] = parts[1] }
        }
        self.init(version: query["version"].map(String.init), rows: query["rows"].map(String.init))
    }

    /// From an outbox's cursors: `spec`, and `rows:<dataset>`.
    public init(cursors: [String: Int64]) {
        self.init(version: cursors["spec"].map { Int(clamping: $0) })
        for (stream, cursor) in cursors where stream.hasPrefix("rows:") { rows[String(stream.dropFirst(5))] = cursor }
    }

    /// The cursor as an event's `id:` (datasets in name order), which ``init(lastEventID:)`` reads back.
    public var lastEventID: String {
        var parts: [String] = []
        if let version { parts.append("version=\(version)") }
        if !rows.isEmpty {
            parts.append(
                "rows=" + rows.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))
        }
        return parts.joined(separator: "&")
    }
}
