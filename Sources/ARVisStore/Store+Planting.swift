public import ARVisSupport
public import Foundation
import SQLKit

extension Store {
    /// Adds a planting area to a project.
    public func createArea(
        projectID: String, name: String, area: [UInt8], exclusions: [UInt8]?, squareMetres: Double,
        now date: Date = Date()
    ) async throws(StoreError) -> PlantingArea {
        let stored = PlantingArea(
            id: UUID().uuidString.lowercased(), name: name, area: area, exclusions: exclusions,
            squareMetres: squareMetres,
            createdAt: date.storePrecision)
        try await withDatabase { database in
            try await database.raw(
                """
                INSERT INTO areas (id, project_id, name, area, exclusions, square_metres, created_at) VALUES
                (\(bind: stored.id), \(bind: projectID), \(bind: name), \(bind: Data(area)), \(bind: exclusions.map { Data($0) }),
                 \(bind: squareMetres), \(bind: stored.createdAt.timeIntervalSince1970))
                """
            ).run()
        }
        return stored
    }

    /// A project's areas, oldest first, with their GeoJSON.
    public func areas(projectID: String) async throws(StoreError) -> [PlantingArea] {
        try await withDatabase { database in
            try await database.raw("SELECT * FROM areas WHERE project_id = \(bind: projectID) ORDER BY created_at, id")
                .all().map(Self.area)
        }
    }

    /// One area of a project, or `nil`.
    public func area(projectID: String, id: String) async throws(StoreError) -> PlantingArea? {
        try await withDatabase { database in
            try await database.raw("SELECT * FROM areas WHERE project_id = \(bind: projectID) AND id = \(bind: id)")
                .first().map(Self.area)
        }
    }

    /// Deletes an area and its plans; returns whether it existed.
    public func deleteArea(projectID: String, id: String) async throws(StoreError) -> Bool {
        try await deleteRow(from: "areas", projectID: projectID, id: id)
    }

    /// Stores a plan of an area.
    public func savePlan(projectID: String, areaID: String, summary: String, geojson: [UInt8], now date: Date = Date())
        async throws(StoreError) -> StoredPlan
    {
        let plan = StoredPlan(
            id: UUID().uuidString.lowercased(), areaID: areaID, summary: summary, geojson: geojson,
            createdAt: date.storePrecision)
        try await withDatabase { database in
            try await database.raw(
                """
                INSERT INTO plans (id, project_id, area_id, summary, geojson, created_at) VALUES
                (\(bind: plan.id), \(bind: projectID), \(bind: areaID), \(bind: summary), \(bind: Data(geojson)), \(bind: plan.createdAt.timeIntervalSince1970))
                """
            ).run()
        }
        return plan
    }

    /// A project's plans, oldest first, without their trees.
    public func plans(projectID: String) async throws(StoreError) -> [StoredPlan] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT id, area_id, summary, created_at FROM plans WHERE project_id = \(bind: projectID) ORDER BY created_at, id
                """
            ).all().map { try Self.plan($0, withTrees: false) }
        }
    }

    /// One plan with its trees, or `nil`.
    public func plan(projectID: String, id: String) async throws(StoreError) -> StoredPlan? {
        try await withDatabase { database in
            try await database.raw("SELECT * FROM plans WHERE project_id = \(bind: projectID) AND id = \(bind: id)")
                .first()
                .map { try Self.plan($0, withTrees: true) }
        }
    }

    /// Plants `tree` unless it is too close to a tree already there, checked in the same transaction
    /// as the insert, so two editors planting at one spot at once get one tree and one conflict.
    ///
    /// Two trees keep at least the larger of their spacings apart. A tree whose `clientID` was
    /// planted before is a retry: the first tree is returned and nothing changes.
    /// - Parameter largestSpacing: the largest spacing any stored tree can have, which bounds the search.
    /// - Returns: the tree and whether it was planted now (`false`: a retry).
    /// - Throws: ``StoreError`` `conflict` naming the nearest tree too close and the distance.
    public func plantTree(projectID: String, _ tree: Tree, plantedByID: String?, largestSpacing: Double)
        async throws(StoreError) -> (tree: Tree, planted: Bool)
    {
        var tree = tree
        tree.plantedAt = tree.plantedAt.storePrecision
        return try await recordingTransaction(lock: "trees:\(projectID)") { [tree] database, events in
            if let clientID = tree.clientID,
                let earlier = try await database.raw(
                    """
                    SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                    WHERE project_id = \(bind: projectID) AND client_id = \(bind: clientID)
                    """
                ).first().map(Self.tree)
            {
                return (earlier, false)
            }
            let radius = max(tree.spacing, largestSpacing)
            let neighbours = try await database.raw(
                """
                SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                WHERE project_id = \(bind: projectID) AND x BETWEEN \(bind: tree.x - radius) AND \(bind: tree.x + radius)
                AND z BETWEEN \(bind: tree.z - radius) AND \(bind: tree.z + radius)
                """
            ).all().map(Self.tree)
            let conflicts = neighbours.map {
                (
                    tree: $0,
                    distance: ((tree.x - $0.x) * (tree.x - $0.x) + (tree.z - $0.z) * (tree.z - $0.z)).squareRoot()
                )
            }
            .filter { $0.distance < max(tree.spacing, $0.tree.spacing) }
            if let nearest = conflicts.min(by: { $0.distance < $1.distance }) {
                throw StoreError(
                    .conflict,
                    String(
                        format: "%.2f m from the %@ planted at (%.2f, %.2f)%@; these trees keep %g m apart",
                        nearest.distance,
                        nearest.tree.species, nearest.tree.x, nearest.tree.z,
                        nearest.tree.plantedBy.map { " by \($0)" } ?? "", max(tree.spacing, nearest.tree.spacing)),
                    location: "trees/\(nearest.tree.id)")
            }
            try await Self.insert(tree, projectID: projectID, plantedByID: plantedByID, on: database)
            try await events.record(.treePlanted, projectID: projectID, subject: tree.id, on: database)
            return (tree, true)
        }
    }

    /// Plants a group of trees the way `decide` chooses from the trees standing around it, in one
    /// transaction holding the project's planting lock, so two devices tapping at once never store
    /// two trees closer than `decide` allows.
    ///
    /// `decide` gets every tree whose position lies within `radius` of (`x`, `z`) on each ground axis
    /// and every tree of `session`, and returns the trees to plant (each already given its group and
    /// session) or a refusal. A group whose first tree carries a `clientID` planted before is a
    /// retry: that group is returned and nothing changes.
    public func plantTreeGroup(
        projectID: String, session: String, clientID: String?, around x: Double, _ z: Double, within radius: Double,
        plantedByID: String?, decide: @escaping @Sendable ([Tree]) -> TreeGroupDecision
    ) async throws(StoreError) -> TreeGroupOutcome {
        try await recordingTransaction(lock: "trees:\(projectID)") { database, events in
            if let clientID,
                let earlier = try await database.raw(
                    """
                    SELECT group_id FROM trees WHERE project_id = \(bind: projectID) AND client_id = \(bind: clientID)
                    """
                ).first()?.decode(column: "group_id", as: String?.self)
            {
                return .retried(try await Self.trees(of: earlier, projectID: projectID, on: database))
            }
            let standing = try await database.raw(
                """
                SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                WHERE project_id = \(bind: projectID) AND x BETWEEN \(bind: x - radius) AND \(bind: x + radius)
                AND z BETWEEN \(bind: z - radius) AND \(bind: z + radius)
                UNION
                SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                WHERE project_id = \(bind: projectID) AND session = \(bind: session)
                """
            ).all().map(Self.tree)
            switch decide(standing) {
            case .refuse(let blocking, let reason):
                return .refused(blocking: blocking, reason: reason)
            case .plant(var trees):
                for index in trees.indices { trees[index].plantedAt = trees[index].plantedAt.storePrecision }
                for tree in trees {
                    try await Self.insert(tree, projectID: projectID, plantedByID: plantedByID, on: database)
                }
                try await events.record(trees.map { (.treePlanted, $0.id, nil) }, projectID: projectID, on: database)
                return .planted(trees)
            }
        }
    }

    /// Removes the trees of a tap group; returns how many there were.
    public func removeTreeGroup(projectID: String, id: String) async throws(StoreError) -> Int {
        try await removeTrees(projectID: projectID, where: "group_id", is: id)
    }

    /// Removes the trees a device session planted; returns how many there were.
    public func removeTrees(projectID: String, session: String) async throws(StoreError) -> Int {
        try await removeTrees(projectID: projectID, where: "session", is: session)
    }

    /// Removes every tree of a project; returns how many there were.
    public func removeAllTrees(projectID: String) async throws(StoreError) -> Int {
        try await removeTrees(projectID: projectID, where: "project_id", is: projectID)
    }

    /// Removes the trees whose `column` is `value`, announcing each.
    private func removeTrees(projectID: String, where column: String, is value: String) async throws(StoreError) -> Int
    {
        try await recordingTransaction(lock: "trees:\(projectID)") { database, events in
            let ids = try await database.raw(
                "SELECT id FROM trees WHERE project_id = \(bind: projectID) AND \(ident: column) = \(bind: value)"
            ).all().map { try $0.decode(column: "id", as: String.self) }
            guard !ids.isEmpty else { return 0 }
            try await database.raw(
                "DELETE FROM trees WHERE project_id = \(bind: projectID) AND \(ident: column) = \(bind: value)"
            ).run()
            try await events.record(ids.map { (.treeRemoved, $0, nil) }, projectID: projectID, on: database)
            return ids.count
        }
    }

    /// The trees of a tap group (in the order of their ids).
    private static func trees(of group: String?, projectID: String, on database: any SQLDatabase) async throws -> [Tree]
    {
        try await database.raw(
            """
            SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
            WHERE project_id = \(bind: projectID) AND group_id = \(bind: group ?? "") ORDER BY planted_at, trees.id
            """
        ).all().map(Self.tree)
    }

    /// Inserts one tree.
    private static func insert(_ tree: Tree, projectID: String, plantedByID: String?, on database: any SQLDatabase)
        async throws
    {
        try await database.raw(
            """
            INSERT INTO trees (id, project_id, species, spacing, x, y, z, planted_by, planted_at, client_id,
                               scale, yaw, group_id, session) VALUES
            (\(bind: tree.id), \(bind: projectID), \(bind: tree.species), \(bind: tree.spacing), \(bind: tree.x), \(bind: tree.y), \(bind: tree.z),
             \(bind: plantedByID), \(bind: tree.plantedAt.storePrecision.timeIntervalSince1970), \(bind: tree.clientID),
             \(bind: tree.scale), \(bind: tree.yaw), \(bind: tree.group), \(bind: tree.session))
            """
        ).run()
    }

    /// A project's trees, oldest first: at most `limit`, and only those after the tree `after` (a
    /// page's last) when given.
    public func trees(projectID: String, after: String? = nil, limit: Int = .max) async throws(StoreError) -> [Tree] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                WHERE project_id = \(bind: projectID) AND (\(bind: after == nil) OR (planted_at, trees.id) > (
                    SELECT planted_at, id FROM trees WHERE project_id = \(bind: projectID) AND id = \(bind: after ?? "")))
                ORDER BY planted_at, trees.id LIMIT \(bind: min(limit, Int(Int32.max)))
                """
            ).all().map(Self.tree)
        }
    }

    /// Removes a tree; returns whether it existed.
    public func removeTree(projectID: String, id: String) async throws(StoreError) -> Bool {
        try await deleteRow(from: "trees", projectID: projectID, id: id, announcing: .treeRemoved)
    }

    /// A tree of a project, or `nil`.
    public func tree(projectID: String, id: String) async throws(StoreError) -> Tree? {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                WHERE project_id = \(bind: projectID) AND trees.id = \(bind: id)
                """
            ).first().map(Self.tree)
        }
    }

    /// Tree `id` and the other trees of its tap group (only itself for a tree planted alone), for a
    /// reader of the event log that is about to need them all: one read instead of one per tree.
    public func treeAndGroup(projectID: String, id: String) async throws(StoreError) -> [Tree] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT trees.*, accounts.username FROM trees LEFT JOIN accounts ON accounts.id = trees.planted_by
                WHERE project_id = \(bind: projectID) AND (trees.id = \(bind: id) OR group_id = (
                    SELECT group_id FROM trees WHERE project_id = \(bind: projectID) AND id = \(bind: id)))
                """
            ).all().map(Self.tree)
        }
    }

    /// Deletes the row `id` of a project's table, logging `event` when it existed; returns whether it did.
    func deleteRow(
        from table: String, projectID: String, id: String, announcing event: StoreEvent.Kind? = nil,
        detail: String? = nil
    ) async throws(StoreError) -> Bool {
        try await recordingTransaction { database, events in
            let found =
                try await database.raw(
                    "SELECT id FROM \(ident: table) WHERE project_id = \(bind: projectID) AND id = \(bind: id)"
                ).first() != nil
            try await database.raw(
                "DELETE FROM \(ident: table) WHERE project_id = \(bind: projectID) AND id = \(bind: id)"
            ).run()
            if found, let event {
                try await events.record(event, projectID: projectID, subject: id, detail: detail, on: database)
            }
            return found
        }
    }

    private static func area(_ row: any SQLRow) throws -> PlantingArea {
        PlantingArea(
            id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
            area: [UInt8](try row.decode(column: "area", as: Data.self)),
            exclusions: try row.decodeNil(column: "exclusions")
                ? nil : [UInt8](try row.decode(column: "exclusions", as: Data.self)),
            squareMetres: try row.decode(column: "square_metres", as: Double.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)))
    }

    private static func plan(_ row: any SQLRow, withTrees: Bool) throws -> StoredPlan {
        StoredPlan(
            id: try row.decode(column: "id", as: String.self),
            areaID: try row.decode(column: "area_id", as: String.self),
            summary: try row.decode(column: "summary", as: String.self),
            geojson: withTrees ? [UInt8](try row.decode(column: "geojson", as: Data.self)) : nil,
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)))
    }

    private static func tree(_ row: any SQLRow) throws -> Tree {
        Tree(
            id: try row.decode(column: "id", as: String.self),
            species: try row.decode(column: "species", as: String.self),
            spacing: try row.decode(column: "spacing", as: Double.self),
            x: try row.decode(column: "x", as: Double.self),
            y: try row.decode(column: "y", as: Double.self), z: try row.decode(column: "z", as: Double.self),
            plantedBy: try row.decodeNil(column: "username")
                ? nil : try row.decode(column: "username", as: String.self),
            plantedAt: Date(timeIntervalSince1970: try row.decode(column: "planted_at", as: Double.self)),
            clientID: try row.decode(column: "client_id", as: String?.self),
            scale: try row.decode(column: "scale", as: Double.self),
            yaw: try row.decode(column: "yaw", as: Double.self),
            group: try row.decode(column: "group_id", as: String?.self),
            session: try row.decode(column: "session", as: String?.self))
    }
}
