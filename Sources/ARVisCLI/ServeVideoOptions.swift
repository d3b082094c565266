import ARVisServer
import ArgumentParser
import Foundation

/// The options of `arvis serve` for video in rooms: the STUN and TURN servers browsers use, and the
/// Janus gateway that forwards a room's video past what peer to peer carries (docs/video.md).
struct ServeVideoOptions: ParsableArguments {
    @Option(
        name: .customLong("ice-server"),
        help: ArgumentHelp(
            "A STUN or TURN server the browsers in rooms use for video; repeatable. TURN needs --turn-secret.",
            valueName: "stun:host:3478|turn:host:3478?transport=udp"))
    var iceServers: [String] = []

    @Option(
        name: .customLong("turn-secret"),
        help: ArgumentHelp(
            "The secret shared with the TURN servers (coturn's static-auth-secret): a room member that starts video gets TURN credentials signed with it, valid --turn-lifetime minutes and renewed over the room's socket. Or set ARVIS_TURN_SECRET, which keeps it out of the process list.",
            valueName: "secret"))
    var turnSecret: String?

    @Option(
        name: .customLong("turn-lifetime"),
        help: ArgumentHelp(
            "How long a member's TURN credentials work, 10 to 60 minutes. A TURN server cannot be told to refuse credentials it was given, so a member removed from a project keeps them this long.",
            valueName: "minutes"))
    var turnLifetime = 20

    @Flag(
        name: .customLong("relay-only"),
        help:
            "Browsers in rooms send video only through the TURN servers (iceTransportPolicy relay), so no member learns another's address. Needs a turn: --ice-server."
    )
    var relayOnly = false

    @Option(
        help: ArgumentHelp(
            "Forward rooms' video through this Janus gateway (its VideoRoom plugin, over its HTTP API): the device sends its camera once, and Janus sends it to every member. Without it, video goes peer to peer, to 3 members of a room at most.",
            valueName: "http://127.0.0.1:8088/janus"))
    var sfu: String?

    @Option(
        name: .customLong("sfu-secret"),
        help: ArgumentHelp(
            "Janus's api_secret, if it has one. Or set ARVIS_SFU_SECRET, which keeps it out of the process list.",
            valueName: "secret"))
    var sfuSecret: String?

    @Option(
        name: .customLong("direct-viewers"),
        help:
            "With --sfu, how many members of a room still get the video peer to peer before Janus forwards it to the rest, 0 to 3."
    )
    var directViewers = 0

    /// A secret from its option, else from the environment.
    private static func secret(_ option: String?, environment name: String) -> String? {
        option ?? ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        for url in iceServers {
            if let problem = ServerConfiguration.iceServerProblem(url) {
                throw ValidationError("--ice-server \(url): \(problem)")
            }
        }
        let hasTURN = iceServers.contains(where: ServerConfiguration.isTURN)
        if hasTURN, Self.secret(turnSecret, environment: "ARVIS_TURN_SECRET") == nil {
            throw ValidationError(
                "a TURN --ice-server needs --turn-secret (or ARVIS_TURN_SECRET): the secret coturn checks credentials with"
            )
        }
        if !hasTURN, relayOnly {
            throw ValidationError("--relay-only sends video through TURN: give a turn: or turns: --ice-server too")
        }
        let lifetime = TimeInterval(turnLifetime) * 60
        guard ServerConfiguration.turnCredentialLifetimes.contains(lifetime) else {
            throw ValidationError("--turn-lifetime must be 10 to 60 minutes, found \(turnLifetime)")
        }
        if !hasTURN, turnSecret != nil {
            throw ValidationError("--turn-secret signs TURN credentials: give a turn: or turns: --ice-server too")
        }
        if let sfu, let problem = ServerConfiguration.sfuProblem(sfu) { throw ValidationError(problem) }
        guard (0...3).contains(directViewers) else { throw ValidationError("--direct-viewers must be 0 to 3") }
        if sfu == nil, directViewers != 0 || sfuSecret != nil {
            throw ValidationError("--direct-viewers and --sfu-secret are about the SFU: give --sfu too")
        }
    }

    /// Sets the video options of `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        configuration.iceServers = iceServers
        configuration.turnSecret = Self.secret(turnSecret, environment: "ARVIS_TURN_SECRET")
        configuration.turnCredentialLifetime = TimeInterval(turnLifetime) * 60
        configuration.relayOnly = relayOnly
        configuration.sfu = sfu
        configuration.sfuSecret = Self.secret(sfuSecret, environment: "ARVIS_SFU_SECRET")
        configuration.directViewers = directViewers
    }

    /// Fails with the reason when --sfu names no Janus that answers with its VideoRoom plugin.
    func checkSFU() async throws {
        guard let sfu else { return }
        do {
            try await ARVisServer.checkSFU(sfu, secret: Self.secret(sfuSecret, environment: "ARVIS_SFU_SECRET"))
        } catch {
            throw CommandFailure(exit: .usage, description: "--sfu \(sfu): \(error)")
        }
    }
}
