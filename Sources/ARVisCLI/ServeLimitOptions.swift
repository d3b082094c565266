import ARVisServer
import ArgumentParser

/// The options of `arvis serve` that bound what clients may cost it: password hashing, sign-ups,
/// idle connections, plans and per-project quotas (docs/security.md lists them with their reasons).
struct ServeLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("password-cost"),
        help: "bcrypt's cost factor for password hashes, 4 to 31 (each step doubles the work).")
    var passwordCost = 12

    @Option(
        name: .customLong("sign-ups-per-address"),
        help: "Accounts one client address may make per 10 minutes (429 beyond).")
    var signUpsPerAddress = 20

    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds a connection may take to send a request's head, or stay idle between requests.")
    var idleTimeout = 30

    @Option(
        name: .customLong("max-plan-trees"),
        help: "The most trees one plan may hold, estimated before planning (422 beyond).")
    var maximumPlanTrees = 200_000

    @Option(
        name: .customLong("room-members"),
        help: "Members one room may hold on an instance (a device and the experts watching it; 1008 roomFull beyond).")
    var roomMembers = 250

    @Option(
        name: .customLong("live-connections-per-account"),
        help: "Spec streams and room connections one account may hold open on an instance (429 beyond).")
    var liveConnectionsPerAccount = 1_000

    @Option(name: .customLong("quota-anchors"), help: "Anchors one project may hold.")
    var anchors = ProjectQuotas().anchors

    @Option(
        name: .customLong("quota-asset-bytes"), help: "Bytes of 3D assets one project may hold, its trash included.")
    var assetBytes = ProjectQuotas().assetBytes

    @Option(name: .customLong("quota-rows"), help: "Dataset rows one project may hold over all its datasets.")
    var rows = ProjectQuotas().rows

    @Option(
        name: .customLong("quota-row-bytes"),
        help: "Bytes of dataset rows (as compact JSON) one project may hold over all its datasets.")
    var rowBytes = ProjectQuotas().rowBytes

    @Option(name: .customLong("quota-versions"), help: "Spec versions one project may hold over all its specs.")
    var versions = ProjectQuotas().versions

    @Option(name: .customLong("quota-annotations"), help: "Annotations one project may hold over all its rooms.")
    var annotations = ProjectQuotas().annotations

    @Option(name: .customLong("quota-trees"), help: "Planted trees one project may hold.")
    var trees = ProjectQuotas().trees

    @Option(name: .customLong("quota-areas"), help: "Planting areas one project may hold.")
    var areas = ProjectQuotas().areas

    @Option(name: .customLong("quota-plans"), help: "Saved plans one project may hold.")
    var plans = ProjectQuotas().plans

    @Option(name: .customLong("quota-room-links"), help: "Room links one project may hold.")
    var roomLinks = ProjectQuotas().roomLinks

    @Option(name: .customLong("projects-per-account"), help: "Projects one account may own, its trash included.")
    var projectsPerAccount = ProjectQuotas().projectsPerAccount

    func validate() throws {
        guard (4...31).contains(passwordCost) else { throw ValidationError("--password-cost must be between 4 and 31") }
        guard (1...1_000_000).contains(signUpsPerAddress) else {
            throw ValidationError("--sign-ups-per-address must be between 1 and 1000000")
        }
        guard (1...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be between 1 and 86400 seconds")
        }
        guard maximumPlanTrees >= 1 else { throw ValidationError("--max-plan-trees must be at least 1") }
        guard roomMembers >= 2, liveConnectionsPerAccount >= 1 else {
            throw ValidationError("--room-members must be at least 2 and --live-connections-per-account at least 1")
        }
        let counts = [anchors, assetBytes, rows, rowBytes, versions, annotations, trees, areas, plans, roomLinks]
        guard counts.allSatisfy({ $0 >= 0 }), projectsPerAccount >= 0 else {
            throw ValidationError("a --quota-… or --projects-per-account value must not be negative")
        }
    }

    /// Sets these limits in `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        configuration.passwordCost = passwordCost
        configuration.signUpsPerAddress = signUpsPerAddress
        configuration.idleTimeout = Double(idleTimeout)
        configuration.maximumPlanTrees = maximumPlanTrees
        configuration.roomMembers = roomMembers
        configuration.liveConnectionsPerAccount = liveConnectionsPerAccount
        configuration.quotas = ProjectQuotas()
        configuration.quotas.anchors = anchors
        configuration.quotas.assetBytes = assetBytes
        configuration.quotas.rows = rows
        configuration.quotas.rowBytes = rowBytes
        configuration.quotas.versions = versions
        configuration.quotas.annotations = annotations
        configuration.quotas.trees = trees
        configuration.quotas.areas = areas
        configuration.quotas.plans = plans
        configuration.quotas.roomLinks = roomLinks
        configuration.quotas.projectsPerAccount = projectsPerAccount
    }
}
