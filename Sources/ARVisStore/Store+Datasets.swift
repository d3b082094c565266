public import Foundation
import SQLKit

extension Store {
    /// The most rows a dataset keeps; appending more drops the oldest.
    public static let rowsPerDataset = 100_000

    /// Appends rows (each a JSON object's text) to a project's dataset, creating it on first use, and
    /// drops the oldest past ``rowsPerDataset``.
    /// - Returns: the rows as stored, with their sequence numbers.
    public func appendRows(projectID: String, dataset: String, _ rows: [String], now date: Date = Date())
        async throws(StoreError) -> [DatasetRow]
    {
        let now = date.storePrecision
        return try await recordingTransaction(lock: "dataset:\(projectID):\(dataset)") { database, events in
            var stored: [DatasetRow] = []
            stored.reserveCapacity(rows.count)
            for row in rows {
                let sequence =
                    try await database.raw(
                        """
                        INSERT INTO dataset_rows (project_id, dataset, row, created_at) VALUES
                        (\(bind: projectID), \(bind: dataset), \(bind: row), \(bind: now.timeIntervalSince1970)) RETURNING seq
                        """
                    ).first(decodingColumn: "seq", as: Int64.self) ?? 0
                stored.append(DatasetRow(sequence: sequence, createdAt: now, json: row))
            }
            try await database.raw(
                """
                DELETE FROM dataset_rows WHERE project_id = \(bind: projectID) AND dataset = \(bind: dataset) AND seq <= (
                    SELECT seq FROM dataset_rows WHERE project_id = \(bind: projectID) AND dataset = \(bind: dataset)
                    ORDER BY seq DESC LIMIT 1 OFFSET \(bind: Self.rowsPerDataset))
                """
            ).run()
            if let first = stored.first, let last = stored.last {
                try await events.record(
                    .rowsAppended, projectID: projectID, subject: dataset, detail: "\(first.sequence)-\(last.sequence)",
                    on: database)
            }
            return stored
        }
    }

    /// The newest rows of a dataset, oldest first: at most `last` of them, none older than `since`,
    /// none at or before sequence `after`, none after sequence `through`, and no more of the oldest
    /// than fit in `maximumBytes` (the newest row always does).
    public func rows(
        projectID: String, dataset: String, last: Int = rowsPerDataset, since: Date? = nil,
        after: Int64 = 0, through: Int64 = .max, maximumBytes: Int = .max
    ) async throws(StoreError) -> [DatasetRow] {
        try await rowWindow(
            projectID: projectID, dataset: dataset, last: last, since: since, after: after, through: through,
            maximumBytes: maximumBytes
        ).rows
    }

    /// The rows ``rows(projectID:dataset:last:since:after:through:maximumBytes:)`` returns, and
    /// whether `maximumBytes` left out older rows the other bounds let in. The rows are read newest
    /// first, a page at a time, so a window of large rows is never read whole.
    public func rowWindow(
        projectID: String, dataset: String, last: Int = rowsPerDataset, since: Date? = nil,
        after: Int64 = 0, through: Int64 = .max, maximumBytes: Int
    ) async throws(StoreError) -> (rows: [DatasetRow], truncated: Bool) {
        var newestFirst: [DatasetRow] = []
        var bytes = 0
        var below = through
        while newestFirst.count < last {
            let (through, limit) = (below, min(max(0, last - newestFirst.count), Self.rowPage))
            let page = try await withDatabase { database in
                try await database.raw(
                    """
                    SELECT seq, row, created_at FROM dataset_rows WHERE project_id = \(bind: projectID) AND dataset = \(bind: dataset)
                    AND seq > \(bind: after) AND seq <= \(bind: through) AND created_at >= \(bind: since?.timeIntervalSince1970 ?? 0)
                    ORDER BY seq DESC LIMIT \(bind: limit)
                    """
                ).all().map(Self.datasetRow)
            }
            for row in page {
                bytes += row.json.utf8.count
                if bytes > maximumBytes, !newestFirst.isEmpty { return (newestFirst.reversed(), true) }
                newestFirst.append(row)
            }
            guard page.count == Self.rowPage, let oldest = page.last else { break }
            below = oldest.sequence - 1
        }
        return (newestFirst.reversed(), false)
    }

    /// The rows read at once by ``rowWindow(projectID:dataset:last:since:after:through:maximumBytes:)``.
    static let rowPage = 1_000

    /// A project's datasets by name, with how many rows each holds.
    public func datasets(projectID: String) async throws(StoreError) -> [(name: String, rows: Int)] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT dataset, COUNT(*) AS count FROM dataset_rows WHERE project_id = \(bind: projectID) GROUP BY dataset ORDER BY dataset
                """
            ).all().map {
                (try $0.decode(column: "dataset", as: String.self), try $0.decode(column: "count", as: Int.self))
            }
        }
    }

    /// Deletes a dataset's rows; returns whether it had any.
    public func deleteDataset(projectID: String, dataset: String) async throws(StoreError) -> Bool {
        try await transaction(lock: "dataset:\(projectID):\(dataset)") { database in
            let found =
                try await database.raw(
                    """
                    SELECT 1 AS one FROM dataset_rows WHERE project_id = \(bind: projectID) AND dataset = \(bind: dataset) LIMIT 1
                    """
                ).first() != nil
            try await database.raw(
                "DELETE FROM dataset_rows WHERE project_id = \(bind: projectID) AND dataset = \(bind: dataset)"
            ).run()
            return found
        }
    }

    private static func datasetRow(_ row: any SQLRow) throws -> DatasetRow {
        DatasetRow(
            sequence: try row.decode(column: "seq", as: Int64.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            json: try row.decode(column: "row", as: String.self))
    }
}
