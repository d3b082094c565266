import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisStore
import ARVisSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension ARVisAPI {
    static func schema(_ anchor: Anchor, pose: [Double]? = nil) -> Components.Schemas.Anchor {
        let pose = pose ?? anchor.pose
        let payload = anchor.payload.flatMap { try? JSONDecoder().decode(OpenAPIValueContainer.self, from: Data($0)) }
        return .init(
            id: anchor.id, pose: .init(position: Array(pose.prefix(3)), orientation: Array(pose.dropFirst(3))),
            payload: payload,
            session: anchor.session, createdAt: anchor.createdAt, expiresAt: anchor.expiresAt)
    }

    /// A pose from the document's form: a finite position within ±100 km and a unit quaternion
    /// (normalised; one far from unit length is refused).
    static func pose(_ pose: Components.Schemas.Pose) throws -> [Double] {
        let position = pose.position
        let q = pose.orientation
        guard position.count == 3, q.count == 4, position.allSatisfy({ $0.isFinite && abs($0) <= Self.worldRadius }),
            q.allSatisfy(\.isFinite)
        else {
            throw APIError.invalid(
                .invalidPose,
                "a pose is a position [x, y, z] in metres within ±100 000 and an orientation quaternion [x, y, z, w]")
        }
        let norm = q.map { $0 * $0 }.reduce(0, +).squareRoot()
        guard abs(norm - 1) < 0.01 else {
            throw APIError.invalid(.invalidPose, "the orientation quaternion has length \(norm), not 1")
        }
        return position + q.map { $0 / norm }
    }

    func createAnchor(_ input: Operations.CreateAnchor.Input) async throws -> Operations.CreateAnchor.Output {
        let access = try await access(input.path.project, needs: .editor)
        guard case .json(let request) = input.body else {
            throw APIError.badRequest("send JSON {pose, payload?, lifetimeDays?, session?}")
        }
        let lifetime = request.lifetimeDays ?? 30
        guard (1...365).contains(lifetime) else {
            throw APIError.invalid(.invalidLifetime, "an anchor lives 1 to 365 days")
        }
        if let session = request.session, !(1...100).contains(session.count) {
            throw APIError.invalid(.invalidSession, "a session is 1 to 100 characters")
        }
        let payload = try request.payload.map { Array(try JSONEncoder().encode($0)) }
        if let payload { try Self.checkBubble(payload) }
        let now = Date()
        let anchor = Anchor(
            session: request.session, pose: try Self.pose(request.pose), payload: payload, createdAt: now,
            expiresAt: now.addingTimeInterval(Double(lifetime) * 86_400))
        try await services.requireQuota(.anchors(1), projectID: access.project.id)
        let saved = try await store.saveAnchor(projectID: access.project.id, anchor)
        return .created(.init(body: .json(Self.schema(saved))))
    }

    /// A payload that says it is a bubble (`kind` `pane` or `trail`) must keep a bubble's rules
    /// (ARVisSpatial's ``Bubble``); any other payload is the app's own.
    /// - Throws: ``APIError`` `422` `invalidBubble`, naming the field, when it breaks one.
    static func checkBubble(_ payload: [UInt8]) throws(APIError) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(payload)) else { return }
        do {
            _ = try Bubble(payload: value)
        } catch {
            throw APIError.invalid(.invalidBubble, error.location.map { "\($0): \(error.message)" } ?? error.message)
        }
    }

    func listAnchors(_ input: Operations.ListAnchors.Input) async throws -> Operations.ListAnchors.Output {
        let access = try await access(input.path.project)
        let anchors = try await store.anchors(projectID: access.project.id, session: input.query.session)
        return .ok(.init(body: .json(.init(anchors: anchors.map { Self.schema($0) }))))
    }

    func getAnchor(_ input: Operations.GetAnchor.Input) async throws -> Operations.GetAnchor.Output {
        let access = try await access(input.path.project)
        let anchor = try APIError.found(
            await store.anchor(projectID: access.project.id, id: input.path.id), else: "no anchor \(input.path.id)")
        return .ok(.init(body: .json(Self.schema(anchor))))
    }

    func deleteAnchor(_ input: Operations.DeleteAnchor.Input) async throws -> Operations.DeleteAnchor.Output {
        let access = try await access(input.path.project, needs: .editor)
        try APIError.found(
            await store.deleteAnchor(projectID: access.project.id, id: input.path.id),
            else: "no anchor \(input.path.id)")
        return .noContent(.init())
    }

    func removeAllBubbles(_ input: Operations.RemoveAllBubbles.Input) async throws
        -> Operations.RemoveAllBubbles.Output
    {
        let access = try await access(input.path.project, needs: .owner)
        let removed = try await answering { () async throws(StoreError) in
            try await store.deleteAnchors(projectID: access.project.id, kinds: Bubble.kinds)
        }
        return .ok(.init(body: .json(.init(removed: removed))))
    }

    /// Registers a new session against the project's anchors (ARVisSpatial's robust rigid
    /// registration over the observed anchors) and returns every anchor in the session's frame.
    func relocalize(_ input: Operations.Relocalize.Input) async throws -> Operations.Relocalize.Output {
        let access = try await access(input.path.project)
        guard case .json(let request) = input.body else {
            throw APIError.badRequest("send JSON {observations: [{anchor, position}]}")
        }
        guard (3...1_000).contains(request.observations.count) else {
            throw APIError.invalid(
                .tooFewObservations, "relocalizing needs 3 to 1000 observed anchors; got \(request.observations.count)"
            )
        }
        let anchors = try await store.anchors(projectID: access.project.id)
        let byID = Dictionary(anchors.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let correspondences = try request.observations.map { observation in
            guard let anchor = byID[observation.anchor], anchor.pose.count == 7 else {
                throw APIError.invalid(
                    .unknownAnchor, "no live anchor \(observation.anchor) in '\(access.project.slug)'")
            }
            let seen = observation.position
            guard seen.count == 3, seen.allSatisfy({ $0.isFinite && abs($0) <= Self.worldRadius }) else {
                throw APIError.invalid(.invalidPosition, "an observed position is [x, y, z] in metres within ±100 000")
            }
            return Correspondence(
                saved: Vec3(anchor.pose[0], anchor.pose[1], anchor.pose[2]), observed: Vec3(seen[0], seen[1], seen[2]))
        }
        let registration: Registration
        do { registration = try RigidRegistration.robust(correspondences) } catch {
            throw APIError.invalid(.cannotRelocalize, "\(error.message)")
        }
        let moved = anchors.filter { $0.pose.count == 7 }.map { anchor in
            let p = anchor.pose
            let pose = registration.remap(
                Similarity(rotation: Rotation(x: p[3], y: p[4], z: p[5], w: p[6]), translation: Vec3(p[0], p[1], p[2])))
            let r = pose.rotation
            return Self.schema(
                anchor, pose: [pose.translation.x, pose.translation.y, pose.translation.z, r.x, r.y, r.z, r.w])
        }
        let transform = registration.transform.matrix.columns.flatMap { [$0.x, $0.y, $0.z, $0.w] }
        return .ok(
            .init(
                body: .json(
                    .init(
                        transform: transform, rmsError: registration.rmsResidual, inliers: registration.inliers.count,
                        anchors: moved))))
    }

    func alignByGeo(_ input: Operations.AlignByGeo.Input) async throws -> Operations.AlignByGeo.Output {
        let access = try await access(input.path.project)
        guard case .json(let request) = input.body else {
            throw APIError.badRequest(
                "send JSON {latitude, longitude, accuracy, heading, headingAccuracy, position, forward, groundHeight?}")
        }
        guard let location = access.project.location else {
            throw APIError.invalid(
                .invalidLocation,
                "'\(access.project.slug)' has no location to align to: an owner sets one (PATCH the project's location), or align by the project's marker"
            )
        }
        let reading = try Self.geoReading(request)
        let site = GeoAlignment.ProjectSite(
            origin: GeoCoordinate(latitude: location.latitude, longitude: location.longitude),
            heading: location.heading)
        let alignment: GeoAlignment
        do { alignment = try GeoAlignment(reading, site: site, groundHeight: request.groundHeight ?? 0) } catch {
            switch error {
            case .noForwardDirection:
                throw APIError.invalid(.invalidPose, "forward points straight up or down: hold the phone up to align")
            case .tooFar(let distance, let limit):
                throw APIError.invalid(
                    .invalidLocation,
                    String(
                        format: "the fix is %.1f km from the project; alignment works within %.0f km of it",
                        distance / 1000, limit / 1000))
            }
        }
        let transform = alignment.sessionFromProject.columns.flatMap { [$0.x, $0.y, $0.z, $0.w] }
        return .ok(
            .init(
                body: .json(
                    .init(
                        transform: transform, accuracy: alignment.accuracy,
                        headingAccuracy: alignment.headingAccuracy,
                        errorPerMetre: alignment.errorPerMetre,
                        distance: GeoFrame(origin: site.origin).distance(site.origin, reading.coordinate)))))
    }

    /// A geo reading from the document's form, its numbers checked.
    private static func geoReading(_ request: Components.Schemas.GeoReading) throws(APIError) -> GeoAlignment.Reading {
        let vectors = [request.position, request.forward]
        guard vectors.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isFinite && abs($0) <= worldRadius } }) else {
            throw APIError.invalid(.invalidPosition, "position and forward are [x, y, z] in metres within ±100 000")
        }
        guard (-90...90).contains(request.latitude), (-180...180).contains(request.longitude),
            (0...10_000).contains(request.accuracy), (0..<360).contains(request.heading),
            (0...180).contains(request.headingAccuracy)
        else {
            throw APIError.invalid(
                .invalidLocation,
                "latitude is −90…90, longitude −180…180, accuracy 0…10 000 m, heading 0…<360°, headingAccuracy 0…180°")
        }
        return GeoAlignment.Reading(
            coordinate: GeoCoordinate(latitude: request.latitude, longitude: request.longitude),
            accuracy: request.accuracy, heading: request.heading, headingAccuracy: request.headingAccuracy,
            position: Vec3(request.position[0], request.position[1], request.position[2]),
            forward: Vec3(request.forward[0], request.forward[1], request.forward[2]))
    }
}
