public import Foundation

/// How `arvis serve` runs: where it keeps its data, where it listens, and its security settings.
public struct ServerConfiguration: Sendable {
    /// The folder of the SQLite database (created if needed).
    public var dataDirectory: String
    /// A PostgreSQL URL (`postgres://user:password@host:5432/database`) to keep everything in
    /// instead of SQLite; `nil`: SQLite under ``dataDirectory``.
    public var databaseURL: String?
    /// The S3 bucket to keep the gallery's files in, `s3://BUCKET?endpoint=URL&region=R`
    /// (credentials from `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`), which several instances
    /// share; `nil`: the folder ``assetDirectory``.
    public var blobStore: String?
    /// The OpenTelemetry collector to send traces to over OTLP/HTTP, a base URL such as
    /// `http://collector:4318` (`/v1/traces` is added); `nil`: no traces, unless
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names one.
    public var traceEndpoint: String?
    /// The address to listen on.
    public var host: String
    /// The port to listen on (0: any free port).
    public var port: Int
    /// The address devices reach the server at, such as `https://arvis.example`, for the links and
    /// QR codes of the spec hub; `nil`: the request's `Host` over `http`.
    public var publicURL: String?
    /// bcrypt's cost factor, 4–31 (values outside are clamped): 12 by default (about a quarter second
    /// a hash); tests use the minimum, 4.
    public var passwordCost: Int
    /// How long a session token lasts.
    public var sessionLifetime: TimeInterval
    /// Failed sign-ins allowed per account within ``signInWindow`` before `429`.
    public var signInAttempts: Int
    /// Failed sign-ins allowed per client address (any accounts) within ``signInWindow`` before `429`.
    public var signInAttemptsPerAddress: Int
    /// The window failed sign-ins are counted over.
    public var signInWindow: TimeInterval
    /// Accounts that may be made from one client address within ``signUpWindow`` before `429`.
    public var signUpsPerAddress = 20
    /// The window sign-ups are counted over: 10 minutes.
    public var signUpWindow: TimeInterval = 600
    /// How long a connection may stay idle, or take to send a request's head, before it is closed:
    /// 30 s. Open live streams are not idle.
    public var idleTimeout: TimeInterval = 30
    /// The largest tree count a plan may have (`422` past it, estimated before planning): 200 000.
    public var maximumPlanTrees = 200_000
    /// The most members of one room on one instance: 250.
    public var roomMembers = 250
    /// The most live connections (spec streams and rooms) one account holds on one instance: 1 000.
    public var liveConnectionsPerAccount = 1_000
    /// Per-project quotas (`403 quotaExceeded` past them).
    public var quotas = ProjectQuotas()
    /// The largest spec (or planting area) body accepted (`413` above): 5 MB.
    public var maximumSpecBytes: Int
    /// The largest anchor body accepted, its payload included: 16 KB.
    public var maximumAnchorBytes: Int
    /// The origins browsers may call the API from (CORS), `*` for any; empty, the default: none.
    public var allowedOrigins: Set<String>
    /// The largest 3D asset accepted for upload (`413` above): 200 MB.
    public var maximumAssetBytes: Int
    /// The map tiles ARVis Studio's planting map shows when a browser can reach them, as a URL
    /// template with `{z}`, `{x}` and `{y}` (OpenStreetMap's by default); `nil`: only the metric grid.
    public var mapTiles: String?

    /// The STUN and TURN servers room members' browsers use for video (`stun:`, `stuns:`, `turn:`
    /// or `turns:` URLs); none by default (peers on one network need none).
    public var iceServers: [String] = []
    /// The secret shared with the TURN servers (coturn's `static-auth-secret`): each member gets
    /// credentials it signs, valid for ``turnCredentialLifetime``.
    public var turnSecret: String?
    /// Whether members' browsers send video only through the TURN servers (`iceTransportPolicy:
    /// "relay"`), so no member learns another's network address.
    public var relayOnly = false
    /// The HTTP API of the Janus gateway (its VideoRoom plugin) that forwards rooms' video, such as
    /// `http://127.0.0.1:8088/janus`; `nil`, the default: video goes peer to peer only, to at most
    /// 3 members of a room.
    public var sfu: String?
    /// Janus's `api_secret`, when it has one.
    public var sfuSecret: String?
    /// With an SFU, how many members of a room get the video directly from the publisher before
    /// Janus forwards it to the rest: 0, the default, sends it all through Janus.
    public var directViewers = 0

    /// Why `url` cannot name Janus's HTTP API, or `nil`.
    public static func sfuProblem(_ url: String) -> String? {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased()),
            parsed.host?.isEmpty == false, parsed.query == nil
        else { return "--sfu is the URL of Janus's HTTP API, such as http://127.0.0.1:8088/janus" }
        return nil
    }

    /// How long a member's TURN credentials work: 20 minutes by default, 10 to 60
    /// (``turnCredentialLifetimes``). A member's browser asks for new ones before they expire.
    public var turnCredentialLifetime: TimeInterval = 20 * 60

    /// The lifetimes TURN credentials may have, in seconds: short, because a TURN server cannot be
    /// told to refuse credentials it was given before they expire (a member removed from a project
    /// keeps its credentials until then).
    public static let turnCredentialLifetimes: ClosedRange<TimeInterval> = 600...3_600

    /// Whether `url` names a TURN server (`turn:` or `turns:`), whose credentials need ``turnSecret``.
    public static func isTURN(_ url: String) -> Bool { url.lowercased().hasPrefix("turn") }

    /// Why `url` cannot name a STUN or TURN server, or `nil`.
    public static func iceServerProblem(_ url: String) -> String? {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard ["stun", "stuns", "turn", "turns"].contains(scheme), url.count > scheme.count + 1 else {
            return
                "an ICE server is a stun:, stuns:, turn: or turns: URL (RFC 7064, 7065), such as turn:turn.example:3478"
        }
        let rest = url.dropFirst(scheme.count + 1).prefix { $0 != "?" }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) }) else {
            return "an ICE server URL is scheme:host[:port][?transport=udp|tcp]"
        }
        return nil
    }

    /// OpenStreetMap's standard tiles.
    public static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    /// The origin (`https://tile.openstreetmap.org`) of a map tile URL template, which pages may
    /// load pictures from; `nil` unless it is an http or https URL with a plain host name and
    /// `{z}`, `{x}` and `{y}`.
    public static func mapTileOrigin(_ template: String) -> String? {
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains),
            let url = URL(
                string: template.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
            let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = url.host,
            !host.isEmpty,
            host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" })
        else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Creates a configuration; the defaults are those of `arvis serve`.
    public init(
        dataDirectory: String = "arvis-data", databaseURL: String? = nil, host: String = "127.0.0.1", port: Int = 8080,
        publicURL: String? = nil,
        passwordCost: Int = 12, sessionLifetime: TimeInterval = 30 * 86_400, signInAttempts: Int = 5,
        signInAttemptsPerAddress: Int = 50,
        signInWindow: TimeInterval = 15 * 60,
        maximumSpecBytes: Int = 5_000_000, maximumAnchorBytes: Int = 16_384,
        allowedOrigins: Set<String> = [], maximumAssetBytes: Int = 200_000_000,
        mapTiles: String? = ServerConfiguration.openStreetMapTiles
    ) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.host = host
        self.port = port
        self.publicURL = publicURL
        self.passwordCost = passwordCost
        self.sessionLifetime = sessionLifetime
        self.signInAttempts = signInAttempts
        self.signInAttemptsPerAddress = signInAttemptsPerAddress
        self.signInWindow = signInWindow
        self.maximumSpecBytes = maximumSpecBytes
        self.maximumAnchorBytes = maximumAnchorBytes
        self.allowedOrigins = allowedOrigins
        self.maximumAssetBytes = maximumAssetBytes
        self.mapTiles = mapTiles
    }

    /// Why `url` cannot name a blob store (``blobStore``), or `nil`.
    public static func blobStoreProblem(_ url: String) -> String? {
        do throws(S3Error) {
            _ = try S3Location(url: url)
            return nil
        } catch {
            return error.message
        }
    }

    /// Why `url` cannot name an OpenTelemetry collector (``traceEndpoint``), or `nil`.
    public static func traceEndpointProblem(_ url: String) -> String? {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            parsed.host?.isEmpty == false, parsed.query == nil, parsed.fragment == nil
        else {
            return "a collector is an http or https base URL such as http://collector:4318, not \(url)"
        }
        return nil
    }

    /// The folder of the gallery's files when there is no ``blobStore``: uploads by content hash,
    /// their thumbnails and conversions.
    public var assetDirectory: String { (dataDirectory as NSString).appendingPathComponent("assets") }

    /// The database file.
    public var databasePath: String { (dataDirectory as NSString).appendingPathComponent("arvis.sqlite") }
}

/// How much one project may hold, so no project (or attacker with an editor's role) can fill the
/// server: past a quota, writes answer `403` with the code `quotaExceeded`.
public struct ProjectQuotas: Sendable, Hashable {
    /// Saved anchors: 10 000.
    public var anchors = 10_000
    /// Bytes of 3D assets uploaded (the trash included): 2 GB.
    public var assetBytes = 2_000_000_000
    /// Dataset rows, over all datasets: 1 000 000.
    public var rows = 1_000_000
    /// Bytes of dataset rows (compact JSON), over all datasets: 100 MB.
    public var rowBytes = 100_000_000
    /// Spec versions, over all specs: 10 000.
    public var versions = 10_000
    /// Annotations, over all rooms: 2 000 (each at most 8 000 bytes of text, so a room's welcome
    /// stays within a live client's queue).
    public var annotations = 2_000
    /// Planted trees: 200 000 (as many as one plan may hold).
    public var trees = 200_000
    /// Planting areas: 1 000.
    public var areas = 1_000
    /// Saved plans: 1 000.
    public var plans = 1_000
    /// Room links: 1 000.
    public var roomLinks = 1_000
    /// Projects one account may own, its trash included: 100.
    public var projectsPerAccount = 100

    /// The default quotas.
    public init() {}
}
