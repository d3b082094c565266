import ARVisClient
import ARVisServer
import ARVisTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Planting in AR: ReforestAR tap groups made and checked by the server, over HTTP and in rooms.
struct TreeGroupTests: ServerTesting {
    let scratch = ScratchFolder("server-tree-groups")

    private func tap(
        _ x: Double, _ z: Double, count: Int = 1, scale: Double = 1, session: String = "phone-a",
        species: String = "Pinus pinea", clientId: String? = nil
    ) throws -> ByteBuffer {
        var body: [String: Any] = [
            "species": species, "position": ["x": x, "y": 0.1, "z": z], "count": count, "scale": scale,
            "session": session,
        ]
        body["clientId"] = clientId
        return try json(body)
    }

    private func group(_ response: TestResponse) throws -> Components.Schemas.TreeGroup {
        try decode(Components.Schemas.TreeGroup.self, response)
    }

    /// Every pair of `trees` keeps the larger of its spacings (checked pair by pair, not by the product).
    private func crowdedPairs(_ trees: [Components.Schemas.Tree]) -> Int {
        var crowded = 0
        for (i, a) in trees.enumerated() {
            for b in trees[(i + 1)...] {
                let distance = hypot(a.position.x - b.position.x, a.position.z - b.position.z)
                if distance < max(a.spacing ?? 0, b.spacing ?? 0) - 1e-9 { crowded += 1 }
            }
        }
        return crowded
    }

    @Test func aTapPlantsAGroupThatUndoTakesBack() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest")
            let uri = "/api/v1/projects/\(slug)/trees/groups"
            let planted = try await client.execute(
                uri: uri, method: .post, headers: owner, body: try tap(2, 3, count: 5, scale: 1.5, clientId: "t-1"))
            #expect(planted.status == .created)
            let made = try group(planted)
            #expect(made.trees.count == 5)
            #expect(made.trees.allSatisfy { $0.group == made.id && $0.session == "phone-a" && $0.scale == 1.5 })
            #expect(made.trees[0].position.x == 2 && made.trees[0].position.z == 3, "tree 0 stands at the tap")
            #expect(made.trees.allSatisfy { $0.position.y == 0.1 }, "the group shares the tap's height")
            #expect(abs((made.trees[0].yaw ?? 0) + Double.pi / 3) < 1e-9, "ReforestAR turns even trees when s > 0.8")
            #expect(crowdedPairs(made.trees) == 0)

            let retry = try await client.execute(
                uri: uri, method: .post, headers: owner, body: try tap(2, 3, count: 5, scale: 1.5, clientId: "t-1"))
            #expect(retry.status == .ok, "a retried tap is applied once")
            #expect(Set(try group(retry).trees.map(\.id)) == Set(made.trees.map(\.id)))

            let undo = try await client.execute(uri: "\(uri)/\(made.id)", method: .delete, headers: owner)
            #expect(undo.status == .noContent)
            let again = try await client.execute(uri: "\(uri)/\(made.id)", method: .delete, headers: owner)
            #expect(again.status == .notFound)
            let listed = try await client.execute(uri: "/api/v1/projects/\(slug)/trees", method: .get, headers: owner)
            #expect(try trees(listed).isEmpty)
        }
    }

    @Test func aTapWithoutRoomShowsTheTreesInItsWayAndStoresNothing() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest")
            // A cork oak planted on the map keeps its 8 m from the group.
            let oak = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees", method: .post, headers: owner,
                body: try json(["species": "Quercus suber", "position": ["x": 0, "z": 0]]))
            #expect(oak.status == .created)
            let refused = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/groups", method: .post, headers: owner,
                body: try tap(3, 0, count: 4))
            #expect(refused.status == .conflict)
            #expect(try errorCode(refused) == "noSpace")
            let details = try #require(try object(refused)["error"] as? [String: Any])["details"] as? [String: Any]
            let inTheWay = try #require(details?["trees"] as? [[String: Any]])
            #expect(inTheWay.map { $0["species"] as? String } == ["Quercus suber"])
            let listed = try await client.execute(uri: "/api/v1/projects/\(slug)/trees", method: .get, headers: owner)
            #expect(try trees(listed).count == 1, "nothing was stored")

            // ReforestAR's 5sn: a session grows next to its own trees only.
            let first = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/groups", method: .post, headers: owner,
                body: try tap(30, 0, session: "phone-b"))
            #expect(first.status == .created)
            let far = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/groups", method: .post, headers: owner,
                body: try tap(60, 0, session: "phone-b"))
            #expect(far.status == .conflict)
            #expect(try errorMessage(far).contains("this session planted"))
            let otherSession = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/groups", method: .post, headers: owner,
                body: try tap(60, 0, session: "phone-c"))
            #expect(otherSession.status == .created)
            let cleared = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/sessions/phone-b", method: .delete, headers: owner)
            #expect(try object(cleared)["removed"] as? Int == 1)
        }
    }

    @Test(arguments: [
        (
            #"{"species": "Pinus pinea", "position": {"x": 0, "z": 0}, "count": 11, "session": "s"}"#,
            "invalidTreesPerTap"
        ),
        (#"{"species": "Pinus pinea", "position": {"x": 0, "z": 0}, "scale": 5.2, "session": "s"}"#, "invalidScale"),
        (#"{"species": "Pinus pinea", "position": {"x": 0, "z": 0}, "scale": 0, "session": "s"}"#, "invalidScale"),
        (#"{"species": "Pinus pinea", "position": {"x": 0, "z": 0}, "session": "a b"}"#, "invalidSession"),
        (#"{"species": "Pinus pinea", "position": {"x": 1e9, "z": 0}, "session": "s"}"#, "invalidPosition"),
        (#"{"species": "Nothing like a tree", "position": {"x": 0, "z": 0}, "session": "s"}"#, "unknownSpecies"),
    ])
    func badTapsAreRefusedWithTheirReason(body: String, code: String) async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest")
            let response = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/groups", method: .post, headers: owner,
                body: ByteBuffer(string: body))
            #expect(response.status == .unprocessableContent || response.status == .badRequest)
            #expect(try errorCode(response) == code || response.status == .badRequest)
            let listed = try await client.execute(uri: "/api/v1/projects/\(slug)/trees", method: .get, headers: owner)
            #expect(try trees(listed).isEmpty)
        }
    }

    @Test func twoPhonesTappingAtOnceNeverStoreTreesTooClose() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest")
            let uri = "/api/v1/projects/\(slug)/trees/groups"
            let statuses = try await withThrowingTaskGroup(of: Int.self) { taps in
                for index in 0..<20 {
                    taps.addTask {
                        let body = try tap(
                            Double(index % 5) * 0.8, Double(index / 5) * 0.8, count: 3,
                            session: index % 2 == 0 ? "phone-a" : "phone-b")
                        return try await client.execute(uri: uri, method: .post, headers: owner, body: body).status.code
                    }
                }
                return try await taps.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 409 })
            #expect(statuses.contains(201) && statuses.contains(409))
            let listed = try await client.execute(uri: "/api/v1/projects/\(slug)/trees", method: .get, headers: owner)
            let stored = try trees(listed)
            #expect(stored.count == 3 * statuses.filter { $0 == 201 }.count)
            #expect(crowdedPairs(stored) == 0)
        }
    }

    @Test func aGroupPlantedInARoomReachesEveryMemberAndAViewerIsToldWhy() async throws {
        try await withServer(live: true) { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Field")
            let viewer = try await signIn(client, "vera")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/vera", method: .put, headers: owner,
                body: try json(["role": "viewer"]))
            let port = try #require(client.port)
            let ana = TestSocket(port: port, path: "/live/\(slug)/rooms/field", token: token(in: owner))
            let vera = TestSocket(port: port, path: "/live/\(slug)/rooms/field", token: token(in: viewer))
            _ = try await ana.nextJSON()
            _ = try await vera.nextJSON()
            try await ana.send(
                #"{"type": "plantGroup", "species": "Pinus pinea", "position": {"x": 0, "y": 0, "z": 0}, "count": 3, "scale": 0.5, "session": "phone-a", "clientId": "g-1"}"#
            )
            var seen: [[String: Any]] = []
            while seen.count < 3 {
                let message = try await vera.nextJSON()
                if message["type"] as? String == "tree" { seen.append(message["tree"] as? [String: Any] ?? [:]) }
            }
            #expect(Set(seen.compactMap { $0["group"] as? String }).count == 1)
            #expect(seen.allSatisfy { $0["scale"] as? Double == 0.5 && $0["session"] as? String == "phone-a" })
            try await vera.send(
                #"{"type": "plantGroup", "species": "Pinus pinea", "position": {"x": 9, "z": 9}, "session": "phone-v", "clientId": "v-1"}"#
            )
            let refused = try await vera.nextJSON()
            #expect(refused["type"] as? String == "refused" && refused["code"] as? String == "forbidden")
            #expect(refused["clientId"] as? String == "v-1")
            // Undo in the room takes the group back for everyone.
            let id = try #require(seen.first?["group"] as? String)
            try await ana.send(#"{"type": "removeTreeGroup", "id": "\#(id)"}"#)
            var removed = 0
            while removed < 3 {
                if try await vera.nextJSON()["type"] as? String == "treeRemoved" { removed += 1 }
            }
            for socket in [ana, vera] { try await socket.close() }
        }
    }

    @Test func speciesModelsAndThePlantingAreServedAs3DFiles() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "olga")
            let slug = try await createProject(client, owner, name: "Forest")
            let found = try await client.execute(uri: "/api/v1/species?q=pinheiro%20manso", method: .get)
            let pine = try #require((try object(found)["species"] as? [[String: Any]])?.first)
            #expect(pine["crown"] as? String == "umbrella")
            let path = try #require(pine["model"] as? String)
            #expect(path == "/api/v1/species/pinus-pinea/model.glb")
            let model = try await client.execute(uri: path, method: .get)
            #expect(model.status == .ok && model.headers[.contentType] == "model/gltf-binary")
            #expect(Array(model.body.readableBytesView.prefix(4)) == Array("glTF".utf8))
            let etag = try #require(model.headers[.eTag])
            let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(
                try await client.execute(uri: "/api/v1/species/pinus-nothing/model.glb", method: .get).status
                    == .notFound)

            let empty = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees.usdz", method: .get, headers: owner)
            #expect(empty.status == .unprocessableContent)
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/trees/groups", method: .post, headers: owner,
                body: try tap(0, 0, count: 4, scale: 1.2))
            for (ext, media, magic) in [("glb", "model/gltf-binary", "glTF"), ("usdz", "model/vnd.usdz+zip", "PK")] {
                let file = try await client.execute(
                    uri: "/api/v1/projects/\(slug)/trees.\(ext)", method: .get, headers: owner)
                #expect(file.status == .ok && file.headers[.contentType] == media)
                #expect(Array(file.body.readableBytesView.prefix(magic.utf8.count)) == Array(magic.utf8))
            }
            let stranger = try await signIn(client, "otto")
            #expect(
                try await client.execute(uri: "/api/v1/projects/\(slug)/trees.glb", method: .get, headers: stranger)
                    .status == .notFound, "a private project's planting is not a stranger's")
        }
    }
}
