import ARVisClient
import ARVisServer
import ARVisStore
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import Testing

/// Planting (areas, plans, trees with the spacing rule) and anchors (lifetime, cap, relocalization) over HTTP.
struct PlantingAndAnchorTests: ServerTesting {
    let scratch = ScratchFolder("server-planting")

    private func areaBody() throws -> ByteBuffer {
        let area = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/planting-area.geojson")))
        return try json(["name": "Parcel", "area": area])
    }

    @Test func areasArePlannedAndThePlanIsGeoJSON() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest", visibility: "public")
            let area = try await client.execute(
                uri: "/api/v1/projects/\(slug)/areas", method: .post, headers: owner, body: try areaBody())
            #expect(area.status == .created)
            let created = try decode(Components.Schemas.Area.self, area)
            let areaID = created.id
            #expect(created.squareMetres > 100)
            let plan = try await client.execute(
                uri: "/api/v1/projects/\(slug)/plans", method: .post, headers: owner,
                body: try json(["area": areaID, "species": [["name": "Quercus suber"]], "seed": 7]))
            #expect(plan.status == .created)
            let made = try decode(Components.Schemas.Plan.self, plan)
            let trees = made.summary.trees
            #expect(trees > 0)
            let planID = made.id
            let geojson = try await client.execute(uri: "/api/v1/projects/\(slug)/plans/\(planID)", method: .get)
            #expect(geojson.headers[.contentType] == "application/geo+json")
            let features = try #require((try object(geojson)["features"] as? [[String: Any]]))
            #expect(
                features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }.count == trees)
            let typo = try await client.execute(
                uri: "/api/v1/projects/\(slug)/plans", method: .post, headers: owner,
                body: try json(["area": areaID, "species": [["name": "Nothing like a tree"]]]))
            #expect(typo.status == .unprocessableContent)
            let broken = try await client.execute(
                uri: "/api/v1/projects/\(slug)/areas", method: .post, headers: owner,
                body: try json(["name": "Bad", "area": ["type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]]]))
            #expect(broken.status == .unprocessableContent)
        }
    }

    @Test func treesKeepTheirSpacingEvenWhenPlantedAtOnce() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest")
            let uri = "/api/v1/projects/\(slug)/trees"
            let first = try await client.execute(
                uri: uri, method: .post, headers: owner,
                body: try json(["species": "Quercus suber", "position": ["x": 0, "z": 0], "clientId": "a-1"]))
            #expect(first.status == .created)
            let retry = try await client.execute(
                uri: uri, method: .post, headers: owner,
                body: try json(["species": "Quercus suber", "position": ["x": 0, "z": 0], "clientId": "a-1"]))
            #expect(retry.status == .ok, "a retried change is applied once")
            let close = try await client.execute(
                uri: uri, method: .post, headers: owner,
                body: try json(["species": "Quercus suber", "position": ["x": 1, "z": 1]]))
            #expect(close.status == .conflict)
            #expect(try errorCode(close) == "conflict")

            // Two editors at one new spot at once: one tree, one conflict.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<2 {
                    group.addTask {
                        try await client.execute(
                            uri: uri, method: .post, headers: owner,
                            body: try json([
                                "species": "Pinus pinea", "position": ["x": 50 + Double(index) * 0.5, "z": 50],
                            ])
                        ).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201, 409])
            let trees = try await client.execute(uri: uri, method: .get, headers: owner)
            #expect(try self.trees(trees).count == 2)
            let species = try await client.execute(uri: "/api/v1/species?q=sobreiro", method: .get)
            #expect(
                try decode(Operations.SearchSpecies.Output.Ok.Body.JsonPayload.self, species).species.first?.latinName
                    == "Quercus suber")
        }
    }

    @Test func aSessionIsAlignedToTheProjectByAGeolocationFixAndACompass() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Hillside", visibility: "public")
            let uri = "/api/v1/projects/\(slug)/align/geo"
            // Standing 10 m east of the origin of a project whose −z points north, looking north,
            // at the session's origin, looking down its −z: the project's origin is 10 m to the left.
            let reading: [String: Any] = [
                "latitude": 39.6129, "longitude": -8.6623 + 10 / (111_320 * cos(39.6129 * Double.pi / 180)),
                "accuracy": 3, "heading": 0, "headingAccuracy": 5, "position": [0, 1.5, 0], "forward": [0, -0.2, -1],
            ]
            let noLocation = try await client.execute(uri: uri, method: .post, headers: owner, body: try json(reading))
            #expect(noLocation.status == .unprocessableContent)
            #expect(try errorMessage(noLocation).contains("marker"))
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)", method: .patch, headers: owner,
                body: try json(["location": ["latitude": 39.6129, "longitude": -8.6623]]))
            let aligned = try await client.execute(uri: uri, method: .post, headers: owner, body: try json(reading))
            #expect(aligned.status == .ok)
            let body = try object(aligned)
            let transform = try #require(body["transform"] as? [Double])
            #expect(
                abs(transform[12] + 10) < 0.1 && abs(transform[14]) < 0.01,
                "the origin is 10 m to the left: \(transform)")
            #expect(abs(transform[0] - 1) < 1e-6, "the frames are not turned")
            #expect(body["accuracy"] as? Double == 3 && abs((body["distance"] as? Double ?? 0) - 10) < 0.1)
            var lookingUp = reading
            lookingUp["forward"] = [0, 1, 0]
            let up = try await client.execute(uri: uri, method: .post, headers: owner, body: try json(lookingUp))
            #expect(try errorCode(up) == "invalidPose")
            var elsewhere = reading
            elsewhere["latitude"] = 38.7
            #expect(
                try errorCode(
                    try await client.execute(uri: uri, method: .post, headers: owner, body: try json(elsewhere)))
                    == "invalidLocation")
        }
    }

    @Test func anchorsAreCappedPerSessionAndExpire() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Panes")
            let uri = "/api/v1/projects/\(slug)/anchors"
            for index in 0..<101 {
                let saved = try await client.execute(
                    uri: uri, method: .post, headers: owner,
                    body: try json([
                        "pose": ["position": [Double(index), 0, 0], "orientation": [0, 0, 0, 1]], "session": "s1",
                        "payload": ["colour": "red", "n": index],
                    ]))
                #expect(saved.status == .created)
            }
            let anchors = try decode(
                Operations.ListAnchors.Output.Ok.Body.JsonPayload.self,
                try await client.execute(uri: uri + "?session=s1", method: .get, headers: owner)
            ).anchors
            #expect(anchors.count == 100, "a session keeps 100 anchors")
            let payload = anchors.first?.payload?.value as? [String: (any Sendable)?]
            #expect((payload?["n"] as? Int) == 1, "the oldest went first")
            // The cap is the project's setting, the owners': a lower one applies from the next save.
            let project = "/api/v1/projects/\(slug)"
            for refused in [0, 1_001] {
                let response = try await client.execute(
                    uri: project, method: .patch, headers: owner, body: try json(["anchorsPerSession": refused]))
                #expect(try errorCode(response) == "invalidAnchorCap")
            }
            let lowered = try await client.execute(
                uri: project, method: .patch, headers: owner, body: try json(["anchorsPerSession": 5]))
            #expect(try decode(Components.Schemas.Project.self, lowered).anchorsPerSession == 5)
            _ = try await client.execute(
                uri: uri, method: .post, headers: owner,
                body: try json(["pose": ["position": [0, 0, 0], "orientation": [0, 0, 0, 1]], "session": "s1"]))
            let kept = try decode(
                Operations.ListAnchors.Output.Ok.Body.JsonPayload.self,
                try await client.execute(uri: uri + "?session=s1", method: .get, headers: owner)
            ).anchors
            #expect(kept.count == 5, "the session keeps the project's 5 newest")
            let big = try await client.execute(
                uri: uri, method: .post, headers: owner,
                body: try json([
                    "pose": ["position": [0, 0, 0], "orientation": [0, 0, 0, 1]],
                    "payload": String(repeating: "x", count: 20_000),
                ]))
            #expect(big.status == .contentTooLarge)
            let forever = try await client.execute(
                uri: uri, method: .post, headers: owner,
                body: try json([
                    "pose": ["position": [0, 0, 0], "orientation": [0, 0, 0, 1]], "lifetimeDays": 400,
                ]))
            #expect(forever.status == .unprocessableContent)
        }
    }

    /// Bubbles are anchors whose payload says so: kept when they keep a bubble's rules, refused with
    /// the field named when they break one, never stored for a viewer.
    @Test func bubblesAreAnchorsThatKeepABubblesRules() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Bubbles")
            let viewer = try await signIn(client, "vera")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/vera", method: .put, headers: owner,
                body: try json(["role": "viewer"]))
            let uri = "/api/v1/projects/\(slug)/anchors"
            let pose: [String: Any] = ["position": [0, 1.2, -0.8], "orientation": [0, 0, 0, 1]]
            func blow(_ payload: [String: Any], as headers: HTTPFields) async throws -> TestResponse {
                try await client.execute(
                    uri: uri, method: .post, headers: headers,
                    body: try json(["pose": pose, "session": "phone", "payload": payload]))
            }
            let pane: [String: Any] = ["kind": "pane", "width": 0.6, "height": 0.4, "thicknessOffset": 20, "phase": 1]
            #expect(try await blow(pane, as: owner).status == .created)
            let trail: [String: Any] = ["kind": "trail", "up": [0, 1, 0], "points": [0, 0, 0, 12, 0, -3, 11, 1, 0]]
            #expect(try await blow(trail, as: owner).status == .created)
            for (broken, field) in [
                (["kind": "pane", "width": 3], "payload.width"),
                (["kind": "pane", "width": 0.6, "thicknessOffset": 1_000], "payload.thicknessOffset"),
                (
                    ["kind": "trail", "up": [0, 1, 0], "points": Array(repeating: 10, count: 3 * 1_025)],
                    "payload.points"
                ),
                (["kind": "trail", "up": [0, 1, 0], "points": [0, 0, 0, 0.5, 0, 0]], "payload.points[3]"),
            ] as [([String: Any], String)] {
                let refused = try await blow(broken, as: owner)
                #expect(refused.status == .unprocessableContent)
                #expect(try errorCode(refused) == "invalidBubble")
                #expect(String(buffer: refused.body).contains(field), "\(String(buffer: refused.body))")
            }
            #expect(try await blow(pane, as: viewer).status == .forbidden)
            // Another app's payload with a kind of its own is its business.
            #expect(try await blow(["kind": "note", "width": 99], as: owner).status == .created)
            let anchors = try decode(
                Operations.ListAnchors.Output.Ok.Body.JsonPayload.self,
                try await client.execute(uri: uri, method: .get, headers: owner)
            ).anchors
            #expect(anchors.count == 3, "the pane, the trail and the note; nothing refused was stored")
            for (ext, magic) in [("glb", "glTF"), ("usdz", "PK")] {
                let file = try await client.execute(
                    uri: "/api/v1/projects/\(slug)/bubbles.\(ext)", method: .get, headers: owner)
                #expect(file.status == .ok)
                #expect(Array(file.body.readableBytesView.prefix(magic.utf8.count)) == Array(magic.utf8))
            }
            let editor = try await signIn(client, "edna")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/edna", method: .put, headers: owner,
                body: try json(["role": "editor"]))
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/bubbles", method: .delete, headers: editor)
                    .status
                    == .forbidden, "only owners remove every bubble")
            let cleared = try decode(
                Operations.RemoveAllBubbles.Output.Ok.Body.JsonPayload.self,
                try await client.execute(uri: "/api/v1/projects/\(slug)/bubbles", method: .delete, headers: owner))
            #expect(cleared.removed == 2, "the pane and the trail")
            let left = try decode(
                Operations.ListAnchors.Output.Ok.Body.JsonPayload.self,
                try await client.execute(uri: uri, method: .get, headers: owner)
            ).anchors
            #expect(left.count == 1, "the note stays")
            let none = try await client.execute(
                uri: "/api/v1/projects/\(slug)/bubbles.glb", method: .get, headers: owner)
            #expect(try errorCode(none) == "noRows")
        }
    }

    @Test func relocalizingMapsEveryAnchorIntoTheNewSession() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Panes")
            let saved: [(id: String, position: [Double])] = try await [[0, 0, 0], [2, 0, 0], [0, 1, 0], [0, 0, 3]]
                .asyncMap { position in
                    let response = try await client.execute(
                        uri: "/api/v1/projects/\(slug)/anchors", method: .post, headers: owner,
                        body: try json(["pose": ["position": position, "orientation": [0, 0, 0, 1]]]))
                    return (try decode(Components.Schemas.Anchor.self, response).id, position)
                }
            // The new session sees everything turned 90° about y and moved by (10, 0, 5): (x, y, z) ↦ (z + 10, y, −x + 5).
            let observations = saved.map {
                ["anchor": $0.id, "position": [$0.position[2] + 10, $0.position[1], -$0.position[0] + 5]]
                    as [String: Any]
            }
            let response = try await client.execute(
                uri: "/api/v1/projects/\(slug)/relocalize", method: .post, headers: owner,
                body: try json(["observations": observations]))
            #expect(response.status == .ok)
            let result = try decode(Components.Schemas.RelocalizationResult.self, response)
            #expect(result.rmsError < 1e-6)
            let second = try #require(result.anchors.first { $0.id == saved[1].id })
            let position = second.pose.position
            #expect(abs(position[0] - 10) < 1e-6 && abs(position[1]) < 1e-6 && abs(position[2] - 3) < 1e-6)
            let tooFew = try await client.execute(
                uri: "/api/v1/projects/\(slug)/relocalize", method: .post, headers: owner,
                body: try json(["observations": Array(observations.prefix(2))]))
            #expect(tooFew.status == .unprocessableContent)
        }
    }

    @Test func expiredAnchorsDisappear() async throws {
        let store = try await Store.open(sqliteAt: try scratch.folder().appendingPathComponent("anchors.sqlite").path)
        let account = try await store.createAccount(username: "olga", passwordHash: "x")
        let project = try await store.createProject(
            slug: "panes", name: "Panes", visibility: .private, ownerID: account.id)
        let past = Date(timeIntervalSinceNow: -86_400)
        _ = try await store.saveAnchor(
            projectID: project.id,
            Anchor(
                session: nil, pose: [0, 0, 0, 0, 0, 0, 1], payload: nil,
                createdAt: past.addingTimeInterval(-60), expiresAt: past))
        #expect(try await store.anchors(projectID: project.id).isEmpty)
        #expect(try await store.purgeExpiredAnchors() == 1)
        await store.close()
    }
}

extension Array {
    /// The elements transformed in order by an async function.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
