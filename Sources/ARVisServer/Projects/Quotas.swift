import ARVisStore
import HTTPTypes

/// What a write adds to a project, checked against ``ServerConfiguration/quotas`` before it is made.
enum QuotaCharge {
    case anchors(Int)
    case assetBytes(Int)
    case rows(Int)
    case rowBytes(Int)
    case versions(Int)
    case annotations(Int)
    case trees(Int)
    case areas(Int)
    case plans(Int)
    case roomLinks(Int)
}

extension ServerServices {
    /// Refuses a write that would take project `projectID` past one of its quotas (`403
    /// quotaExceeded`, saying what is held, what the write adds and the quota), the project's usage
    /// read once for all of `charges`. The check and the write are not
    /// one transaction: concurrent writes may pass a quota by a few, never without bound.
    func requireQuota(_ charges: QuotaCharge..., projectID: String) async throws {
        let usage = try await store.usage(projectID: projectID)
        for charge in charges {
            let (held, adding, quota, what) = standing(charge, usage)
            guard adding > quota - held else { continue }
            throw Self.quotaExceeded(held: held, adding: adding, quota: quota, what: what)
        }
    }

    /// How many bytes of assets project `projectID` may still add, and the refusal of an upload
    /// that turns out to add `bytes` more than that (an upload whose length is not known before it
    /// arrives is metered against it as it comes).
    func assetBytesLeft(projectID: String) async throws -> (left: Int, refusal: @Sendable (Int) -> APIError) {
        let (held, _, quota, what) = standing(.assetBytes(0), try await store.usage(projectID: projectID))
        return (max(0, quota - held), { Self.quotaExceeded(held: held, adding: $0, quota: quota, what: what) })
    }

    /// Refuses a project past the number an account may own (`403 quotaExceeded`).
    func requireProjectQuota(accountID: String) async throws {
        let owned = try await store.ownedProjectCount(accountID: accountID)
        let quota = configuration.quotas.projectsPerAccount
        guard owned >= quota else { return }
        throw APIError(
            .forbidden, .quotaExceeded,
            "the account owns \(owned) projects; an account owns at most \(quota): delete some (and empty the trash), or ask the operator to raise it"
        )
    }

    /// What `usage` holds of what `charge` adds to, what it adds, the quota, and what it counts.
    private func standing(_ charge: QuotaCharge, _ usage: ProjectUsage) -> (
        held: Int, adding: Int, quota: Int, what: String
    ) {
        let quotas = configuration.quotas
        return switch charge {
        case .anchors(let count): (usage.anchors, count, quotas.anchors, "anchors")
        case .assetBytes(let bytes): (usage.assetBytes, bytes, quotas.assetBytes, "bytes of assets")
        case .rows(let count): (usage.rows, count, quotas.rows, "dataset rows")
        case .rowBytes(let bytes): (usage.rowBytes, bytes, quotas.rowBytes, "bytes of dataset rows")
        case .versions(let count): (usage.versions, count, quotas.versions, "spec versions")
        case .annotations(let count): (usage.annotations, count, quotas.annotations, "annotations")
        case .trees(let count): (usage.trees, count, quotas.trees, "trees")
        case .areas(let count): (usage.areas, count, quotas.areas, "planting areas")
        case .plans(let count): (usage.plans, count, quotas.plans, "plans")
        case .roomLinks(let count): (usage.roomLinks, count, quotas.roomLinks, "room links")
        }
    }

    private static func quotaExceeded(held: Int, adding: Int, quota: Int, what: String) -> APIError {
        APIError(
            .forbidden, .quotaExceeded,
            "the project holds \(held) \(what) and this adds \(adding); its quota is \(quota): delete some, or ask the operator to raise it"
        )
    }
}
