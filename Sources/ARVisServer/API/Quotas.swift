import ARVisStore
import HTTPTypes

/// What a write adds to a project, checked against ``ServerConfiguration/quotas`` before it is made.
enum QuotaCharge {
    case anchors(Int)
    case assetBytes(Int)
    case rows(Int)
    case versions(Int)
}

extension ARVisAPI {
    /// Refuses a write that would take project `projectID` past a quota (`403 quotaExceeded`,
    /// saying what is held, what the write adds and the quota). The check and the write are not
    /// one transaction: concurrent writes may pass a quota by a few, never without bound.
    func requireQuota(_ charge: QuotaCharge, projectID: String) async throws {
        let usage = try await store.usage(projectID: projectID)
        let quotas = configuration.quotas
        let (held, adding, quota, what): (Int, Int, Int, String) =
            switch charge {
            case .anchors(let count): (usage.anchors, count, quotas.anchors, "anchors")
            case .assetBytes(let bytes): (usage.assetBytes, bytes, quotas.assetBytes, "bytes of assets")
            case .rows(let count): (usage.rows, count, quotas.rows, "dataset rows")
            case .versions(let count): (usage.versions, count, quotas.versions, "spec versions")
            }
        guard adding > quota - held else { return }
        throw APIError(
            .forbidden, "quotaExceeded",
            "the project holds \(held) \(what) and this adds \(adding); its quota is \(quota): delete some, or ask the operator to raise it"
        )
    }
}
