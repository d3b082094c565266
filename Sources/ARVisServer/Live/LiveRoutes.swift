import ARVisSpec
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import ServiceLifecycle

/// The live streams:
/// - `GET /live/{project}/{name}` — a spec's versions (and its charts' dataset rows) as they are
///   saved: a WebSocket on upgrade, else Server-Sent Events. `?version=N&rows=name:seq,…` (or SSE's
///   `Last-Event-ID`) resumes after what the client holds.
/// - `GET /live/{project}/rooms/{room}` — a room (WebSocket only): `?role=publisher` for the device
///   streaming poses (editors, or a device with a room link: subprotocol `arvis.link.<token>`),
///   else a member; `?since=seq` resumes after an event sequence.
///
/// A token goes in `Authorization: Bearer`, or — where a browser cannot set headers — in the
/// WebSocket subprotocol `arvis.bearer.<token>` (offered with `arvis`), or, for a spec stream
/// alone, `?access_token=`.
struct LiveRoutes: Sendable {
    let services: ServerServices
    let hub: LiveHub
    /// Forwards rooms' video through Janus, when the server has an SFU.
    var sfu: VideoRelay? = nil

    /// The largest message a client may send: 64 KB (a pose packet is 62 bytes).
    static let maximumMessageBytes = 65_536
    /// How often an idle Server-Sent Events stream gets a comment, so a vanished client is noticed.
    static let heartbeat = Duration.seconds(15)

    func register(on router: Router<ServerContext>, webSocketRouter: Router<ServerContext>) {
        router.get("/live/{project}/rooms/{room}") { request, context -> Response in
            try self.services.drain.admit()
            _ = try await self.roomAccess(request, parameters: context.parameters)
            throw APIError(
                .upgradeRequired, .upgradeRequired, "a room is a WebSocket: connect with Upgrade: websocket")
        }
        router.get("/live/{project}/{name}") { request, context in
            try self.services.drain.admit()
            let response = try await self.events(request, parameters: context.parameters)
            Self.limitSendBuffer(of: context.channel)
            return response
        }
        webSocketRouter.ws("/live/{project}/rooms/{room}") { request, context in
            // While draining, the HTTP route answers: 503, so the load balancer tries another instance.
            guard !self.services.drain.isDraining,
                (try? await self.roomAccess(request, parameters: context.parameters)) != nil
            else {
                return .dontUpgrade
            }
            return .upgrade(Self.protocolHeaders(request))
        } onUpgrade: { inbound, outbound, context in
            defer { context.requestContext.endWebSocket() }
            Self.prepare(context.requestContext.channel)
            await self.room(
                inbound, outbound, request: context.request, parameters: context.requestContext.parameters,
                channel: context.requestContext.channel)
        }
        webSocketRouter.ws("/live/{project}/{name}") { request, context in
            guard !self.services.drain.isDraining,
                (try? await self.specAccess(request, parameters: context.parameters)) != nil
            else {
                return .dontUpgrade
            }
            return .upgrade(Self.protocolHeaders(request))
        } onUpgrade: { inbound, outbound, context in
            defer { context.requestContext.endWebSocket() }
            Self.prepare(context.requestContext.channel)
            await self.spec(inbound, outbound, request: context.request, parameters: context.requestContext.parameters)
        }
    }

    /// Fixes a live connection's send buffer (``ConnectionGuard/liveSendBuffer``), on its event loop.
    private static func limitSendBuffer(of channel: any Channel) {
        channel.eventLoop.execute { ConnectionGuard.limitSendBuffer(of: channel) }
    }

    /// Readies an upgraded connection on its event loop, ahead of any frame written to it: its send
    /// buffer is fixed and a ``CloseFrameGuard`` keeps frames from following its close.
    private static func prepare(_ channel: any Channel) {
        channel.eventLoop.execute {
            ConnectionGuard.limitSendBuffer(of: channel)
            // No encoder means the connection is already gone: there is nothing left to guard.
            try? CloseFrameGuard.install(on: channel)
        }
    }

    // MARK: Spec streams

    private func specAccess(_ request: Request, parameters: Parameters) async throws -> (
        key: LiveHub.SpecKey, grant: LiveHub.Grant
    ) {
        let token = Self.token(request, fromQuery: true)
        let access = try await services.access(try parameters.require("project"), token: token)
        let name = try parameters.require("name")
        guard ItemName.isValid(name),
            try await hub.specs.latest(LiveHub.SpecKey(projectID: access.project.id, name: name)) != nil
        else {
            throw APIError.notFound("no spec '\(name)' in '\(access.project.slug)'")
        }
        return (LiveHub.SpecKey(projectID: access.project.id, name: name), Self.grant(access, token: token, role: nil))
    }

    /// What a client connected with: read access (`role` `nil`) or the role it must keep.
    static func grant(_ access: ProjectAccess, token: String?, role: Role?) -> LiveHub.Grant {
        LiveHub.Grant(
            projectID: access.project.id, slug: access.project.slug, token: token, accountID: access.account?.id,
            role: role)
    }

    private func spec(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, request: Request, parameters: Parameters
    ) async {
        let outbox = Outbox()
        do {
            let (key, grant) = try await specAccess(request, parameters: parameters)
            let token = try hub.watch(key, outbox: outbox, grant: grant)
            defer { hub.leave(token) }
            let cursor = SpecCursor(request.uri.queryParameters)
            outbox.sendFirst(try await hub.catchUp(key, holding: cursor.version, rowsAfter: cursor.rows))
            await LiveConnection.pump(outbox, inbound: inbound, outbound: outbound, drain: services.drain) { _ in
                throw LiveClose.unsupported("a spec stream takes no messages")
            }
        } catch {
            await LiveConnection.refuse(outbound, error)
        }
    }

    /// The same stream as Server-Sent Events: `data:` is the message, `id:` the cursor to resume from.
    private func events(_ request: Request, parameters: Parameters) async throws -> Response {
        let (key, grant) = try await specAccess(request, parameters: parameters)
        try hub.requireCapacity(for: grant)
        let cursor =
            HTTPField.Name.lastEventID.flatMap { request.headers[$0] }.map(SpecCursor.init(lastEventID:))
            ?? SpecCursor(request.uri.queryParameters)
        let hub = hub
        var headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]
        if let name = HTTPField.Name.accelBuffering { headers.append(HTTPField(name: name, value: "no")) }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let outbox = Outbox()
                let token = try hub.watch(key, outbox: outbox, grant: grant)
                defer { hub.leave(token) }
                outbox.sendFirst(try await hub.catchUp(key, holding: cursor.version, rowsAfter: cursor.rows))
                let heartbeat = Task {
                    while !Task.isCancelled {
                        try await Task.sleep(for: Self.heartbeat)
                        outbox.send(.text(ByteBuffer()))
                    }
                }
                defer { heartbeat.cancel() }
                // A stream never ends by itself: drained, or at a graceful shutdown, it is closed, so the
                // server can stop.
                try await services.drain.whileOpen(onDrain: { outbox.close(.reconnectElsewhere) }) {
                    try await withGracefulShutdownHandler {
                        while let frame = await outbox.next() {
                            switch frame {
                            case .text(let text) where text.readableBytes == 0:
                                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                            case .text(let text):
                                // The message's bytes are shared with every other client's: written as they are, not copied.
                                try await writer.write(
                                    ByteBuffer(string: "id: \(SpecCursor(cursors: outbox.cursors).lastEventID)\ndata: ")
                                )
                                try await writer.write(text)
                                try await writer.write(ByteBuffer(string: "\n\n"))
                            case .binary: break
                            case .close(let reason):
                                try await writer.write(
                                    ByteBuffer(
                                        string:
                                            "event: close\ndata: \(LiveMessages.close(code: reason.code, reason: reason.reason))\n\n"
                                    ))
                                try await writer.finish(nil)
                                return
                            }
                        }
                        try await writer.finish(nil)
                    } onGracefulShutdown: {
                        outbox.close(LiveClose(1001, "the server is stopping; reconnect to resume"))
                    }
                }
            })
    }

    // MARK: Rooms

    /// Who joins a room, and as what.
    struct RoomAccess: Sendable {
        var access: ProjectAccess
        var key: LiveHub.RoomKey
        var publishes: Bool
        /// The room link it joined with, if any, the owner who made it, and when it expires.
        var link: (token: String, creator: String?, expiresAt: Date)? = nil
    }

    private func roomAccess(_ request: Request, parameters: Parameters) async throws -> RoomAccess {
        let publishes = request.uri.queryParameters["role"].map(String.init) == "publisher"
        let slug = try parameters.require("project")
        let room = try ARVisAPI.room(try parameters.require("room"))
        if let link = Self.roomLink(request) {
            // A room link: the room's publisher (sending poses and planes, annotating) while the
            // link works; nothing else in the project.
            guard publishes else {
                throw APIError.forbidden("a room link joins its room as the publisher: connect with ?role=publisher")
            }
            let (found, project) = try await services.roomLink(link)
            guard project.slug == slug, found.room == room else {
                throw APIError.forbidden("this room link opens the room '\(found.room)' of '\(project.slug)'")
            }
            return RoomAccess(
                access: ProjectAccess(project: project, account: nil, role: .editor),
                key: LiveHub.RoomKey(projectID: project.id, room: room), publishes: publishes,
                link: (link, found.creatorID, found.expiresAt))
        }
        let access = try await services.access(slug, needs: publishes ? .editor : .viewer, token: Self.token(request))
        return RoomAccess(
            access: access, key: LiveHub.RoomKey(projectID: access.project.id, room: room), publishes: publishes)
    }

    private func room(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, request: Request,
        parameters: Parameters,
        channel: any Channel
    ) async {
        let outbox = Outbox()
        do {
            let joining = try await roomAccess(request, parameters: parameters)
            // A member keeps the role it joined with (a publisher, at least an editor's): one that
            // loses it is closed and may join again with the role it has now.
            var grant = Self.grant(
                joining.access, token: joining.link == nil ? Self.token(request) : nil,
                role: joining.publishes ? .editor : joining.access.role)
            // A link's device is checked again when its maker's access changes.
            grant.roomLink = joining.link?.token
            if let link = joining.link { grant.accountID = link.creator }
            let profile = Room.Profile(
                role: joining.publishes ? "publisher" : "member", name: joining.access.account?.username)
            let (room, token) = try hub.join(
                joining.key, member: Room.Member(outbox: outbox, channel: channel, profile: profile), grant: grant)
            defer { hub.leave(token) }
            let since = request.uri.queryParameters["since"].flatMap { Int64(String($0)) }
            let introduction = Room.Introduction(
                member: profile, others: room.profiles(except: token),
                iceServers: ICEServer.stun(in: services.configuration),
                offersTURN: ICEServer.offersTURN(in: services.configuration),
                iceTransportPolicy: services.configuration.relayOnly ? "relay" : "all",
                sfu: sfu.map { _ in Room.Introduction.SFU(directViewers: services.configuration.directViewers) })
            outbox.sendFirst(try await hub.roomCatchUp(joining.key, introducing: introduction, after: since))
            outbox.allowDirect()
            // A link's device is closed the moment its link expires, not at the next periodic check.
            let expiry = joining.link.map { link in
                Task {
                    try await Task.sleep(for: .seconds(max(0, link.expiresAt.timeIntervalSinceNow)))
                    outbox.close(.revoked("the room link expired"))
                }
            }
            defer { expiry?.cancel() }
            let session = RoomSession(
                services: services, joining: joining, grant: grant, room: room, token: token, outbox: outbox,
                profile: profile,
                sfu: sfu, turnGrants: hub.turnGrants)
            await LiveConnection.pump(
                outbox, inbound: inbound, outbound: outbound, drain: services.drain, receive: session.receive)
            await sfu?.left(profile.id)
        } catch {
            await LiveConnection.refuse(outbound, error)
        }
    }

    // MARK: Tokens

    /// The bearer token of a live request: the header, the `arvis.bearer.` subprotocol, or — for a
    /// spec stream, which only reads (an `EventSource` cannot set headers) — `access_token`. A room,
    /// where members write, never takes a token from its address.
    /// (A WebSocket's handler runs after the upgrade, outside ``ServerResponder``'s task, so
    /// the stream reads its token from the request it was upgraded from.)
    static func token(_ request: Request, fromQuery: Bool = false) -> String? {
        if let bearer = SessionToken.bearer(request.headers[.authorization]) { return bearer }
        if let token = offeredProtocols(request).first(where: { $0.hasPrefix("arvis.bearer.") })?.dropFirst(
            "arvis.bearer.".count), !token.isEmpty
        {
            return String(token)
        }
        return fromQuery ? request.uri.queryParameters["access_token"].map(String.init) : nil
    }

    /// The room link a device offers as the subprotocol `arvis.link.TOKEN`, if any.
    static func roomLink(_ request: Request) -> String? {
        offeredProtocols(request).first { $0.hasPrefix(ARVisAPI.roomLinkProtocol) }
            .map { String($0.dropFirst(ARVisAPI.roomLinkProtocol.count)) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The upgrade's headers: the `arvis` subprotocol when the client offered it (a browser that
    /// offers subprotocols refuses an answer without one).
    private static func protocolHeaders(_ request: Request) -> HTTPFields {
        offeredProtocols(request).contains("arvis") ? [.secWebSocketProtocol: "arvis"] : [:]
    }

    /// The WebSocket subprotocols the client offers (`Sec-WebSocket-Protocol`, comma-separated).
    private static func offeredProtocols(_ request: Request) -> [String] {
        request.headers[values: .secWebSocketProtocol].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }
}

extension SpecCursor {
    /// The cursor of a new connection's query: `version=3&rows=sensor:120,door:7`.
    init(_ query: Parameters) {
        self.init(version: query["version"].map(String.init), rows: query["rows"].map(String.init))
    }
}

/// Moves one WebSocket's messages: the outbox to the socket, the socket to a handler.
enum LiveConnection {
    /// Writes `outbox` to `outbound` while `receive` handles what arrives, until either side ends. A
    /// ``LiveClose`` thrown by `receive` closes the connection with its code and reason; so does a
    /// `drain` beginning, with ``LiveClose/reconnectElsewhere``.
    static func pump(
        _ outbox: Outbox, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, drain: Drain,
        receive: @escaping @Sendable (WebSocketMessage) async throws -> Void
    ) async {
        await drain.whileOpen(onDrain: { outbox.close(.reconnectElsewhere) }) {
            await exchange(outbox, inbound: inbound, outbound: outbound, receive: receive)
        }
    }

    private static func exchange(
        _ outbox: Outbox, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        receive: @escaping @Sendable (WebSocketMessage) async throws -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await write(outbox, to: outbound) }
            var closing = false
            do {
                for try await message in inbound.messages(maxSize: LiveRoutes.maximumMessageBytes) {
                    do { try await receive(message) } catch let close as LiveClose {
                        outbox.close(close)
                        closing = true
                        break
                    }
                }
            } catch {
                // The connection failed or sent a frame too large (closed by the WebSocket layer with 1009).
            }
            if !closing { outbox.finish() }
            await group.waitForAll()
        }
    }

    private static func write(_ outbox: Outbox, to outbound: WebSocketOutboundWriter) async {
        while let frame = await outbox.next() {
            do {
                switch frame {
                // One frame per message: a room's poses, written straight to the channel between
                // messages, must never land inside a fragmented one.
                case .text(let text):
                    try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: text)))
                case .binary(let bytes): try await outbound.write(.binary(bytes))
                case .close(let reason):
                    ServerMetrics.countLiveClose(reason.code)
                    try await outbound.close(WebSocketErrorCode(codeNumber: Int(reason.code)), reason: reason.reason)
                    outbox.finish()
                    return
                }
            } catch {
                outbox.finish()
                return
            }
            outbox.written()
        }
    }

    /// Closes a connection that could not start (its access changed since the upgrade, or the store failed).
    static func refuse(_ outbound: WebSocketOutboundWriter, _ error: any Error) async {
        let reason =
            (error as? APIError).map { LiveClose(1008, $0.message) }
            ?? LiveClose(1011, "the server could not start the stream")
        ServerMetrics.countLiveClose(reason.code)
        try? await outbound.close(WebSocketErrorCode(codeNumber: Int(reason.code)), reason: reason.reason)
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`: where a reconnecting Server-Sent Events client was.
    static let lastEventID = HTTPField.Name("Last-Event-ID")
    /// `X-Accel-Buffering: no` keeps nginx from buffering an event stream.
    static let accelBuffering = HTTPField.Name("X-Accel-Buffering")
}
