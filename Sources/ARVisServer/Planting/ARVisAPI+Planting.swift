import ARVisPipeline
import ARVisPlanting
import ARVisSpec
import ARVisStore
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ARVisAPI {
    /// The largest spacing of any catalog species: how far a new tree's neighbours can be.
    static let largestCatalogSpacing = SpeciesCatalog.standard.species.map(\.spacing).max() ?? 0

    func searchSpecies(_ input: Operations.SearchSpecies.Input) async throws -> Operations.SearchSpecies.Output {
        let query = input.query.q ?? ""
        guard query.count <= 200 else { throw APIError.badRequest("q is at most 200 characters") }
        let found = SpeciesCatalog.standard.search(query).prefix(50)
        return .ok(
            .init(
                body: .json(
                    .init(
                        species: found.map { match in
                            .init(
                                latinName: match.species.latinName, englishName: match.species.englishNames.first ?? "",
                                portugueseName: match.species.portugueseNames.first ?? "",
                                spacing: match.species.spacing, minimumHeight: match.species.minimumHeight,
                                maximumHeight: match.species.maximumHeight,
                                crown: .init(rawValue: match.species.crown.rawValue),
                                model: TreeModelRoutes.modelPath(of: match.species))
                        }))))
    }

    // MARK: Areas

    static func schema(_ area: PlantingArea) -> Components.Schemas.Area {
        .init(id: area.id, name: area.name, squareMetres: area.squareMetres, createdAt: area.createdAt)
    }

    func createArea(_ input: Operations.CreateArea.Input) async throws -> Operations.CreateArea.Output {
        let access = try await access(input.path.project, needs: .editor)
        try await services.requireQuota(.areas(1), projectID: access.project.id)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest("send JSON {name, area, exclusions?}")
        }
        let name = try Self.projectName(body.name)
        let area = try JSONEncoder().encode(body.area)
        let exclusions = try body.exclusions.map { try JSONEncoder().encode($0) }
        let site = try Self.site(area: area, exclusions: exclusions)
        let stored = try await store.createArea(
            projectID: access.project.id, name: name, area: Array(area), exclusions: exclusions.map(Array.init),
            squareMetres: site.squareMetres)
        return .created(.init(body: .json(Self.schema(stored))))
    }

    func listAreas(_ input: Operations.ListAreas.Input) async throws -> Operations.ListAreas.Output {
        let access = try await access(input.path.project)
        return .ok(
            .init(body: .json(.init(areas: try await store.areas(projectID: access.project.id).map(Self.schema)))))
    }

    func getArea(_ input: Operations.GetArea.Input) async throws -> Operations.GetArea.Output {
        let access = try await access(input.path.project)
        let area = try APIError.found(
            await store.area(projectID: access.project.id, id: input.path.id), else: "no area \(input.path.id)")
        return .ok(.init(body: .json(Self.schema(area))))
    }

    func deleteArea(_ input: Operations.DeleteArea.Input) async throws -> Operations.DeleteArea.Output {
        let access = try await access(input.path.project, needs: .editor)
        try APIError.found(
            await store.deleteArea(projectID: access.project.id, id: input.path.id), else: "no area \(input.path.id)")
        return .noContent(.init())
    }

    /// The features of an area's GeoJSON and its zones, checked as `arvis plant` checks them.
    /// - Throws: ``APIError`` `422` with the reader's or the site check's reason.
    static func features(area: Data, exclusions: Data?) throws -> (area: GeoFeatures, exclusions: GeoFeatures?) {
        do {
            let features = try GeoJSONReader.read(area, file: "area")
            guard !features.polygons.isEmpty else {
                throw APIError.invalid(.invalidArea, "the area holds no Polygon or MultiPolygon: nothing to plant")
            }
            try SiteCheck.check(features.polygons, file: "area")
            let zones = try exclusions.map { data throws(SpecError) in try GeoJSONReader.read(data, file: "exclusions")
            }
            if let zones { try SiteCheck.check(zones.polygons, file: "exclusions") }
            return (features, zones)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.invalid(.invalidArea, "\(error)")
        }
    }

    /// The site an area makes, in the local frame around it.
    static func site(area: Data, exclusions: Data?) throws -> PlantingSite {
        let features = try features(area: area, exclusions: exclusions)
        let frame = GeoFrame(around: features.area.polygons)
        return PlantingSite(
            areas: features.area.polygons.map(frame.area),
            exclusions: features.exclusions?.polygons.map(frame.area) ?? [])
    }

    // MARK: Plans

    /// A stored plan; its summary is kept as the JSON of the document's `PlanSummary`.
    static func schema(_ plan: StoredPlan) -> Components.Schemas.Plan {
        let summary =
            (try? JSONDecoder().decode(Components.Schemas.PlanSummary.self, from: Data(plan.summary.utf8)))
            ?? .init(trees: 0, squareMetres: 0, perHectare: 0, perSpecies: [], shortfall: 0)
        return .init(id: plan.id, area: plan.areaID, summary: summary, createdAt: plan.createdAt)
    }

    static func schema(_ summary: PlanSummary) -> Components.Schemas.PlanSummary {
        .init(
            trees: summary.trees, squareMetres: summary.squareMetres, perHectare: summary.perHectare,
            minimumDistance: summary.minimumDistance, perSpecies: summary.perSpecies, shortfall: summary.shortfall)
    }

    func createPlan(_ input: Operations.CreatePlan.Input) async throws -> Operations.CreatePlan.Output {
        let access = try await access(input.path.project, needs: .editor)
        try await services.requireQuota(.plans(1), projectID: access.project.id)
        guard case .json(let request) = input.body else {
            throw APIError.badRequest("send JSON {area, species?, spacing?, layout?, count?, seed?}")
        }
        let area = try APIError.found(
            await store.area(projectID: access.project.id, id: request.area), else: "no area \(request.area)")
        let features = try Self.features(area: Data(area.area), exclusions: area.exclusions.map { Data($0) })
        let planting: AreaPlanting
        do {
            planting = try AreaPlanting(
                area: features.area, named: area.name,
                exclusions: features.exclusions.map { [($0, "exclusions")] } ?? [],
                mix: try Self.mix(request), layout: try Self.layout(request), count: request.count,
                seed: UInt64(clamping: request.seed ?? 1), maximumTrees: configuration.maximumPlanTrees)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.invalid(.cannotPlan, "\(error)")
        }
        let summary = String(decoding: try JSONEncoder().encode(Self.schema(planting.plan.summary)), as: UTF8.self)
        let plan = try await store.savePlan(
            projectID: access.project.id, areaID: area.id, summary: summary,
            geojson: Array(GeoJSONWriter.write(planting.plan, frame: planting.frame).utf8))
        return .created(.init(body: .json(Self.schema(plan))))
    }

    func listPlans(_ input: Operations.ListPlans.Input) async throws -> Operations.ListPlans.Output {
        let access = try await access(input.path.project)
        return .ok(
            .init(body: .json(.init(plans: try await store.plans(projectID: access.project.id).map(Self.schema)))))
    }

    /// The species mix a plan request names (catalog names, typos forgiven as `arvis plant` forgives them).
    static func mix(_ request: Components.Schemas.PlanRequest) throws -> SpeciesMix {
        if let spacing = request.spacing, !(spacing > 0 && spacing <= 1_000) {
            throw APIError.invalid(.invalidSpacing, "spacing is more than 0 and at most 1000 m")
        }
        guard let species = request.species, !species.isEmpty else { return .uniform(spacing: request.spacing ?? 3) }
        guard species.count <= 50 else { throw APIError.invalid(.tooManySpecies, "a plan mixes at most 50 species") }
        return SpeciesMix(
            try species.map { entry in
                let share = entry.share ?? 1
                guard share > 0, share <= 1_000 else {
                    throw APIError.invalid(.invalidShare, "a share is more than 0 and at most 1000")
                }
                let found = try catalogSpecies(entry.name)
                return SpeciesMix.Entry(name: found.latinName, spacing: request.spacing ?? found.spacing, share: share)
            })
    }

    /// The layout a plan request names.
    static func layout(_ request: Components.Schemas.PlanRequest) throws -> PlantingLayout {
        switch request.layout ?? .poisson {
        case .poisson: return .poisson
        case .hex:
            let orientation = request.orientation ?? 0
            guard (-360...360).contains(orientation) else {
                throw APIError.invalid(.invalidOrientation, "orientation is −360 to 360 degrees")
            }
            return .triangular(spacing: nil, orientation: orientation)
        case .reforestar:
            let perTap = request.treesPerTap ?? 10
            guard (1...100).contains(perTap) else {
                throw APIError.invalid(.invalidTreesPerTap, "treesPerTap is 1 to 100")
            }
            return .reforestar(treesPerTap: perTap)
        }
    }

    /// The catalog species `name` denotes, or `422` listing what it might have meant.
    static func catalogSpecies(_ name: String) throws -> Species {
        switch SpeciesCatalog.standard.resolve(name) {
        case .found(let species), .forgiven(let species): return species
        case .ambiguous(let candidates):
            throw APIError.invalid(
                .ambiguousSpecies,
                "'\(name)' could be \(candidates.map(\.latinName).joined(separator: ", ")); give more of the name")
        case .unknown:
            throw APIError.invalid(
                .unknownSpecies, "no species of the catalog is called '\(name)'; GET /api/v1/species lists them")
        }
    }

    // MARK: Trees

    static func schema(_ tree: Tree) -> Components.Schemas.Tree {
        .init(
            id: tree.id, species: tree.species, position: .init(x: tree.x, y: tree.y, z: tree.z),
            plantedBy: tree.plantedBy,
            plantedAt: tree.plantedAt, clientId: tree.clientID, spacing: tree.spacing, scale: tree.scale,
            yaw: tree.yaw, group: tree.group, session: tree.session)
    }

    func plantTree(_ input: Operations.PlantTree.Input) async throws -> Operations.PlantTree.Output {
        let access = try await access(input.path.project, needs: .editor)
        guard case .json(let request) = input.body else {
            throw APIError.badRequest("send JSON {species, position: {x, y?, z}, clientId?}")
        }
        let result = try await services.plant(request, in: access)
        let body = Self.schema(result.tree)
        return result.planted ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func plantTreeGroup(_ input: Operations.PlantTreeGroup.Input) async throws -> Operations.PlantTreeGroup.Output {
        let access = try await access(input.path.project, needs: .editor)
        guard case .json(let request) = input.body else {
            throw APIError.badRequest("send JSON {species, position: {x, y?, z}, count?, scale?, session, clientId?}")
        }
        let result = try await services.plantGroup(request, in: access)
        return result.planted ? .created(.init(body: .json(result.group))) : .ok(.init(body: .json(result.group)))
    }

    func removeTreeGroup(_ input: Operations.RemoveTreeGroup.Input) async throws -> Operations.RemoveTreeGroup.Output {
        let access = try await access(input.path.project, needs: .editor)
        try await services.removeTreeGroup(input.path.id, in: access)
        return .noContent(.init())
    }

    func removeSessionTrees(_ input: Operations.RemoveSessionTrees.Input) async throws
        -> Operations.RemoveSessionTrees.Output
    {
        let access = try await access(input.path.project, needs: .editor)
        let removed = try await answering { () async throws(StoreError) in
            try await store.removeTrees(projectID: access.project.id, session: input.path.session)
        }
        guard removed > 0 else { throw APIError.notFound("session \(input.path.session) planted no tree here") }
        return .ok(.init(body: .json(.init(removed: removed))))
    }

    func removeAllTrees(_ input: Operations.RemoveAllTrees.Input) async throws -> Operations.RemoveAllTrees.Output {
        let access = try await access(input.path.project, needs: .owner)
        let removed = try await answering { () async throws(StoreError) in
            try await store.removeAllTrees(projectID: access.project.id)
        }
        return .ok(.init(body: .json(.init(removed: removed))))
    }

    func listTrees(_ input: Operations.ListTrees.Input) async throws -> Operations.ListTrees.Output {
        let access = try await access(input.path.project)
        let limit = try Self.pageLimit(input.query.limit)
        let trees = try await store.trees(projectID: access.project.id, after: input.query.after, limit: limit + 1)
        let page = trees.prefix(limit)
        return .ok(
            .init(body: .json(.init(trees: page.map(Self.schema), next: trees.count > limit ? page.last?.id : nil))))
    }

    func removeTree(_ input: Operations.RemoveTree.Input) async throws -> Operations.RemoveTree.Output {
        let access = try await access(input.path.project, needs: .editor)
        try APIError.found(
            await store.removeTree(projectID: access.project.id, id: input.path.id), else: "no tree \(input.path.id)")
        return .noContent(.init())
    }
}

extension ServerServices {
    /// Plants a tree for an editor (the REST route and shared planting in rooms).
    /// - Returns: the tree, and `false` when a retry found it planted under the same `clientId`.
    /// - Throws: ``APIError`` `422` for a position or species that is not one, `409` when too close to a tree.
    func plant(_ request: Components.Schemas.TreePlanting, in access: ProjectAccess) async throws -> (
        tree: Tree, planted: Bool
    ) {
        let position = try Self.tapPosition(request.position)
        try Self.checkClientID(request.clientId)
        let species = try ARVisAPI.catalogSpecies(request.species)
        try await requireQuota(.trees(1), projectID: access.project.id)
        let tree = Tree(
            species: species.latinName, spacing: species.spacing, x: position.x, y: position.y, z: position.z,
            plantedBy: access.account?.username, clientID: request.clientId)
        return try await answering { () async throws(StoreError) in
            try await store.plantTree(
                projectID: access.project.id, tree, plantedByID: access.account?.id,
                largestSpacing: ARVisAPI.largestCatalogSpacing)
        }
    }
}

extension ServerServices {
    /// Plants a ReforestAR tap group for an editor (the REST route and `plantGroup` in rooms): checks
    /// the request, then has ``ProjectTapGroup`` place the group among the stored trees inside the
    /// store's planting transaction.
    /// - Returns: the group, and `false` when a retry found it planted under the same `clientId`.
    /// - Throws: ``APIError`` `422` for a value out of range or an unknown species, `409` `noSpace`
    ///   (with the trees in the way) when the group finds no room.
    func plantGroup(_ request: Components.Schemas.TreeGroupPlanting, in access: ProjectAccess) async throws -> (
        group: Components.Schemas.TreeGroup, planted: Bool
    ) {
        let tap = try Self.tapPosition(request.position)
        let count = request.count ?? 1
        guard ProjectTapGroup.counts.contains(count) else {
            throw APIError.invalid(.invalidTreesPerTap, "count is 1 to 10 trees per tap")
        }
        let scale = request.scale ?? 1
        guard scale.isFinite, ProjectTapGroup.scales.contains(scale) else {
            throw APIError.invalid(.invalidScale, "scale is 0.01 to 5.01, ReforestAR's slider")
        }
        guard request.session.range(of: "^[A-Za-z0-9_-]{1,100}$", options: .regularExpression) != nil else {
            throw APIError.invalid(.invalidSession, "a session is 1 to 100 letters, digits, - and _")
        }
        try Self.checkClientID(request.clientId)
        let species = try ARVisAPI.catalogSpecies(request.species)
        try await requireQuota(.trees(count), projectID: access.project.id)
        let group = ProjectTapGroup(scale: scale, count: count)
        let planting = TreeGroupRequest(
            group: group, species: species.latinName, session: request.session, clientID: request.clientId,
            plantedBy: access.account?.username)
        // Called directly, not through `answering`'s typed-throws closure: Swift 6.3.1's debug build
        // miscompiles that closure here (a double release of `self`, or a null dereference, on return).
        let outcome: TreeGroupOutcome
        do {
            outcome = try await store.plantTreeGroup(
                projectID: access.project.id, session: request.session, clientID: request.clientId, around: tap.x,
                tap.z, within: group.reach + max(group.spacing, ARVisAPI.largestCatalogSpacing),
                plantedByID: access.account?.id
            ) { planting.decide(at: tap, among: $0) }
        } catch {
            guard let refusal = APIError(error as any Error) else { throw error }
            throw refusal
        }
        switch outcome {
        case .planted(let trees), .retried(let trees):
            let schema = Components.Schemas.TreeGroup(
                id: trees.first?.group ?? "", trees: trees.map(ARVisAPI.schema))
            if case .planted = outcome { return (schema, true) }
            return (schema, false)
        case .refused(let blocking, let reason):
            var error = APIError(.conflict, .noSpace, reason)
            error.details = .init(trees: blocking.map(ARVisAPI.schema))
            throw error
        }
    }

    /// Takes back a tap group for an editor.
    /// - Throws: ``APIError`` `404` when the project has no such group.
    func removeTreeGroup(_ id: String, in access: ProjectAccess) async throws {
        let removed = try await answering { () async throws(StoreError) in
            try await store.removeTreeGroup(projectID: access.project.id, id: id)
        }
        try APIError.found(removed > 0, else: "no tree group \(id) in this project")
    }

    /// Refuses a client id that is not 1 to 100 characters.
    private static func checkClientID(_ clientID: String?) throws(APIError) {
        if let clientID, !(1...100).contains(clientID.count) {
            throw APIError.invalid(.invalidClientId, "a clientId is 1 to 100 characters")
        }
    }

    /// A tree's or a tap's position, checked: finite metres within the project's world (`y` 0 when absent).
    private static func tapPosition(_ position: Components.Schemas.FramePosition) throws(APIError) -> Vec3 {
        let y = position.y ?? 0
        guard [position.x, y, position.z].allSatisfy({ $0.isFinite && abs($0) <= ARVisAPI.worldRadius }) else {
            throw APIError.invalid(.invalidPosition, "a position is metres within ±100 000 of the project's origin")
        }
        return Vec3(position.x, y, position.z)
    }
}

/// One tap's planting: the group's rules, the species and who plants, turned into stored trees.
private struct TreeGroupRequest: Sendable {
    let group: ProjectTapGroup
    let species: String
    let session: String
    let clientID: String?
    let plantedBy: String?

    /// Places the group among `standing` (the store's trees around the tap and the session's).
    func decide(at tap: Vec3, among standing: [Tree]) -> TreeGroupDecision {
        let trees = standing.map {
            ProjectTapGroup.Standing(
                position: Vec3($0.x, $0.y, $0.z), spacing: $0.spacing, sameSession: $0.session == session)
        }
        var generator = SystemRandomNumberGenerator()
        switch group.plant(at: tap, among: trees, using: &generator) {
        case .placed(let placements):
            let id = UUID().uuidString.lowercased()
            let now = Date()
            return .plant(
                placements.enumerated().map { index, placement in
                    Tree(
                        species: species, spacing: group.spacing, x: placement.position.x, y: placement.position.y,
                        z: placement.position.z, plantedBy: plantedBy, plantedAt: now,
                        clientID: index == 0 ? clientID : nil, scale: group.planner.rules.s, yaw: placement.yaw,
                        group: id, session: session)
                })
        case .noSpace(let blocking):
            let rules = group.planner.rules
            let reason =
                blocking.isEmpty
                ? String(
                    format:
                        "no room: ReforestAR plants a group within %g m (5 × scale × count) of every tree this session planted; tap nearer to them, or start a new session",
                    rules.maximumFromOthers)
                : String(
                    format:
                        "no room for %d tree%@ here: %d tree%@ in the way (each keeps its spacing, at least %g m); tap elsewhere",
                    rules.n, rules.n == 1 ? "" : "s", blocking.count, blocking.count == 1 ? " stands" : "s stand",
                    rules.minimumDistance)
            return .refuse(blocking: blocking.map { standing[$0] }, reason: reason)
        }
    }
}
