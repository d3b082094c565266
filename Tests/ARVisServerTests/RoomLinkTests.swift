import ARVisClient
import ARVisSpatial
import ARVisStore
import ARVisTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOWebSocket
import Testing
import WSCore

@testable import ARVisServer

/// Room links: what an owner gives a device so it can share its view in one room (the phone page's
/// "Share my view" in AR), until the link expires.
struct RoomLinkTests: ServerTesting {
    let scratch = ScratchFolder("server-room-links")

    private func link(
        _ client: any TestClientProtocol, _ owner: HTTPFields, _ slug: String, room: String, _ body: String
    )
        async throws -> TestResponse
    {
        try await client.execute(
            uri: "/api/v1/projects/\(slug)/rooms/\(room)/links", method: .post,
            headers: owner, body: ByteBuffer(string: body))
    }

    private func lookUp(_ client: any TestClientProtocol, _ token: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/api/v1/room-links/lookup", method: .post, headers: Self.jsonHeaders,
            body: ByteBuffer(string: #"{"token": "\#(token)"}"#))
    }

    @Test func ownersMakeLinksThatNameTheirRoomUntilTheyExpire() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "unlisted")
            let put = try await client.execute(
                uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: owner,
                body: try example("two-targets-environment.json"))
            #expect(put.status == .created)
            let made = try await link(client, owner, slug, room: "visit", #"{"minutes": 5, "spec": "tour"}"#)
            #expect(made.status == .created)
            let created = try decode(ClientSchemas.RoomLink.self, made)
            #expect(created.url == "/s/\(slug)/tour?room=visit#link=\(created.token)" && created.room == "visit")
            let found = try await lookUp(client, created.token)
            #expect(found.status == .ok)
            let target = try decode(ClientSchemas.RoomLinkTarget.self, found)
            #expect(target.room == "visit" && target.project == slug)

            #expect(try await lookUp(client, "not-a-link").status == .notFound)
            #expect(
                try await link(client, owner, slug, room: "visit", #"{"minutes": 0}"#).status == .unprocessableContent)
            #expect(try await link(client, owner, slug, room: "visit", #"{"spec": "nothing"}"#).status == .notFound)
            #expect(try await link(client, owner, slug, room: "bad.room", "{}").status == .badRequest)
            let editor = try await signIn(client, "bea")
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/members/bea", method: .put, headers: owner,
                    body: try json(["role": "editor"])
                ).status == .ok)
            #expect(try await link(client, editor, slug, room: "visit", "{}").status == .forbidden)

            // A link dies with its maker's ownership.
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/members/bea", method: .put, headers: owner,
                    body: try json(["role": "owner"])
                ).status == .ok)
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/members/ana", method: .put, headers: editor,
                    body: try json(["role": "editor"])
                ).status == .ok)
            let revoked = try await lookUp(client, created.token)
            #expect(revoked.status == .gone)
            #expect(try errorCode(revoked) == "roomLinkRevoked")
        }
    }

    @Test func ownersListARoomsLinksWithoutTheirTokensAndWithdrawOne() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "unlisted")
            let later = try decode(
                ClientSchemas.RoomLink.self, try await link(client, owner, slug, room: "visit", #"{"minutes": 90}"#))
            let sooner = try decode(
                ClientSchemas.RoomLink.self, try await link(client, owner, slug, room: "visit", #"{"minutes": 5}"#))
            _ = try await link(client, owner, slug, room: "other", "{}")
            let listing = "/api/v1/projects/\(slug)/rooms/visit/links"
            let api = apiClient(client, token: token(in: owner))
            let links = try await api.listRoomLinks(path: .init(project: slug, room: "visit")).ok.body.json.links
            #expect(links.map(\.id) == [sooner.id, later.id], "soonest to expire first")
            #expect(links.allSatisfy { $0.createdBy == "ana" && $0.room == "visit" })
            let listed = try await client.execute(uri: listing, method: .get, headers: owner)
            #expect(!String(buffer: listed.body).contains(later.token), "a listing never shows a token")

            let editor = try await signIn(client, "bea")
            _ = try await client.execute(
                uri: "/api/v1/projects/\(slug)/members/bea", method: .put, headers: owner,
                body: try json(["role": "editor"]))
            #expect(try await client.execute(uri: listing, method: .get, headers: editor).status == .forbidden)
            #expect(
                try await client.execute(uri: "\(listing)/\(later.id)", method: .delete, headers: editor).status
                    == .forbidden)

            #expect(
                try await client.execute(uri: "\(listing)/\(later.id)", method: .delete, headers: owner).status
                    == .noContent)
            #expect(try await lookUp(client, later.token).status == .notFound, "a withdrawn link no longer works")
            #expect(try await lookUp(client, sooner.token).status == .ok, "the other link still does")
            let again = try await client.execute(uri: "\(listing)/\(later.id)", method: .delete, headers: owner)
            #expect(again.status == .notFound)
            #expect(try errorMessage(again).contains(later.id))
            let elsewhere = try await client.execute(
                uri: "/api/v1/projects/\(slug)/rooms/other/links/\(sooner.id)", method: .delete, headers: owner)
            #expect(elsewhere.status == .notFound, "a link is withdrawn from its own room only")
            let left = try await api.listRoomLinks(path: .init(project: slug, room: "visit")).ok.body.json.links
            #expect(left.map(\.id) == [sooner.id])
        }
    }

    @Test func aPrivateProjectsLinkNamesNoSpec() async throws {
        try await withServer { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "private")
            #expect(
                try await client.execute(
                    uri: "/api/v1/projects/\(slug)/specs/tour", method: .put, headers: owner,
                    body: try example("two-targets-environment.json")
                ).status == .created)
            let refused = try await link(client, owner, slug, room: "visit", #"{"spec": "tour"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(try errorCode(refused) == "privateProject")
            #expect(try await link(client, owner, slug, room: "visit", "{}").status == .created)
        }
    }

    @Test func anExpiredLinkIsRefusedWithTheAPIsErrorShape() async throws {
        let data = try scratch.folder().path
        try await withServer(configure: { $0.dataDirectory = data }) { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "unlisted")
            let token = "an-expired-room-link"
            // The same database the server uses, for a link that expired a minute ago.
            let store = try await Store.open(sqliteAt: (data as NSString).appendingPathComponent("arvis.sqlite"))
            do {
                let project = try #require(try await store.project(slug: slug))
                try await store.createRoomLink(
                    RoomLink(
                        projectID: project.id, room: "visit", spec: nil, expiresAt: Date(timeIntervalSinceNow: -60),
                        creatorID: nil),
                    tokenHash: SessionToken.hash(token))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            let refused = try await lookUp(client, token)
            #expect(refused.status == .gone)
            #expect(try errorCode(refused) == "roomLinkExpired")
            #expect(try errorMessage(refused).contains("ask the project's owner for a new one"))
            let joining = try await client.execute(
                uri: "/live/\(slug)/rooms/visit?role=publisher", method: .get,
                headers: [.secWebSocketProtocol: "arvis, arvis.link.\(token)"])
            #expect(joining.status == .gone, "nor does it join the room")
            #expect(try errorCode(joining) == "roomLinkExpired")
        }
    }

    @Test func aLinkJoinsItsRoomAsThePublisherAndNoOther() async throws {
        try await withServer(live: true) { client in
            let owner = try await signIn(client, "ana")
            let slug = try await createProject(client, owner, name: "Museum", visibility: "private")
            let created = try decode(
                ClientSchemas.RoomLink.self, try await link(client, owner, slug, room: "visit", "{}"))
            let port = try #require(client.port)
            let device = TestSocket(
                port: port, path: "/live/\(slug)/rooms/visit?role=publisher",
                protocols: ["arvis", "arvis.link.\(created.token)"])
            let expert = TestSocket(port: port, path: "/live/\(slug)/rooms/visit", token: token(in: owner))
            #expect(try await device.nextJSON()["role"] as? String == "publisher")
            _ = try await expert.nextJSON()
            // Its messages are checked against the link, not a session: planes keep it in the room.
            try await device.send(#"{"type": "planes", "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]}"#)
            let packet = PosePacket(
                frameID: 1, timestamp: 0, position: SIMD3(0, 1.6, 0), orientation: .identity,
                intrinsics: SIMD4(500, 500, 180, 390), viewport: SIMD2(360, 780)
            ).encoded()
            try await device.send(packet)
            guard case .binary(let received) = try await expert.next() else {
                Issue.record("the expert did not get the device's pose")
                return
            }
            #expect(Array(buffer: received) == packet)
            // It annotates, but changes nothing else in the project.
            try await device.send(#"{"type": "removeTree", "id": "00000000-0000-0000-0000-000000000000"}"#)
            #expect(try await device.closeFrame()?.closeCode == .policyViolation)

            // Refused before the upgrade, with the API's error shape.
            for (path, link, status) in [
                ("other?role=publisher", created.token, HTTPResponse.Status.forbidden),
                ("visit?role=publisher", "nope", .notFound), ("visit", created.token, .forbidden),
            ] {
                let refused = try await client.execute(
                    uri: "/live/\(slug)/rooms/\(path)", method: .get,
                    headers: [.secWebSocketProtocol: "arvis, arvis.link.\(link)"])
                #expect(refused.status == status, "\(path) with \(link)")
                #expect(try errorMessage(refused).isEmpty == false)
            }

            // Withdrawn: a device in the room with it is closed at once, as when access is revoked.
            let again = TestSocket(
                port: port, path: "/live/\(slug)/rooms/visit?role=publisher",
                protocols: ["arvis", "arvis.link.\(created.token)"])
            #expect(try await again.nextJSON()["role"] as? String == "publisher")
            let withdrawn = try await client.execute(
                uri: "/api/v1/projects/\(slug)/rooms/visit/links/\(created.id)", method: .delete, headers: owner)
            #expect(withdrawn.status == .noContent)
            let frame = try await again.closeFrame(within: .seconds(10))
            #expect(frame?.closeCode == .unknown(4003), "closed for the withdrawn link, not at the next session check")
        }
    }
}
