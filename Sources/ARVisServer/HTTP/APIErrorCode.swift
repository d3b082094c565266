import ARVisSupport

/// The codes of ``APIError``.
enum APIErrorDomain {}

extension APIError {
    /// A stable, machine-readable reason of a refusal, over HTTP and in rooms: one of the static
    /// members below, which `openapi.yaml` lists as its `ErrorCode` (a test compares the two).
    typealias Code = ErrorCode<APIErrorDomain>
}

extension ErrorCode<APIErrorDomain> {
    /// A species name matches more than one of the catalogue's.
    static let ambiguousSpecies = Self("ambiguousSpecies")
    /// The username or the password is wrong.
    static let badCredentials = Self("badCredentials")
    /// The request does not have the shape the route takes (a body that does not decode, a missing field).
    static let badRequest = Self("badRequest")
    /// The area and rules give no plan (planting).
    static let cannotPlan = Self("cannotPlan")
    /// The observations do not place the session in the project's frame.
    static let cannotRelocalize = Self("cannotRelocalize")
    /// The change conflicts with what is stored (a name taken, a tree too close).
    static let conflict = Self("conflict")
    /// The database cannot be reached just now; `Retry-After` says when to try again.
    static let databaseUnavailable = Self("databaseUnavailable")
    /// An upload's bytes do not have the SHA-256 its `Repr-Digest` declares; nothing was stored.
    static let digestMismatch = Self("digestMismatch")
    /// This instance is stopping; another one answers.
    static let draining = Self("draining")
    /// A scene or model cannot be exported.
    static let exportFailed = Self("exportFailed")
    /// The server has no fonts for PNG output.
    static let fontsMissing = Self("fontsMissing")
    /// The account may not do this in this project.
    static let forbidden = Self("forbidden")
    /// The server's file store is full; nothing was stored.
    static let insufficientStorage = Self("insufficientStorage")
    /// The server failed; the request was logged.
    static let `internal` = Self("internal")
    /// The input breaks a rule of the store or the pipeline.
    static let invalid = Self("invalid")
    /// A planting area holds no polygon, or does not read.
    static let invalidArea = Self("invalidArea")
    /// An anchor's payload says it is a bubble (a pane, a trail) and breaks a bubble's rule.
    static let invalidBubble = Self("invalidBubble")
    /// A project's `anchorsPerSession` is not 1 to 1000.
    static let invalidAnchorCap = Self("invalidAnchorCap")
    /// A `clientId` is not 1 to 100 characters.
    static let invalidClientId = Self("invalidClientId")
    /// A lifetime (an anchor's, a room link's) is out of its range.
    static let invalidLifetime = Self("invalidLifetime")
    /// A project's location is not a latitude and longitude.
    static let invalidLocation = Self("invalidLocation")
    /// A name (a project's, an asset's) is out of its rules.
    static let invalidName = Self("invalidName")
    /// An orientation is not −360 to 360 degrees.
    static let invalidOrientation = Self("invalidOrientation")
    /// A pose is not a unit quaternion and a position, or a pose packet does not read.
    static let invalidPose = Self("invalidPose")
    /// A position is out of range.
    static let invalidPosition = Self("invalidPosition")
    /// A dataset row is not a JSON object of scalars, or the CSV is broken.
    static let invalidRow = Self("invalidRow")
    /// A picture's scale is not 1, 2 or 3.
    static let invalidScale = Self("invalidScale")
    /// A session name is not 1 to 100 characters.
    static let invalidSession = Self("invalidSession")
    /// A species' share is out of range.
    static let invalidShare = Self("invalidShare")
    /// A WebRTC signal does not read.
    static let invalidSignal = Self("invalidSignal")
    /// A project's slug is out of its rules.
    static let invalidSlug = Self("invalidSlug")
    /// A planting spacing is out of range.
    static let invalidSpacing = Self("invalidSpacing")
    /// The spatial input (anchors, transforms) does not read.
    static let invalidSpatialInput = Self("invalidSpatialInput")
    /// The spec does not validate; `diagnostics` says where.
    static let invalidSpec = Self("invalidSpec")
    /// `treesPerTap` is not 1 to 100.
    static let invalidTreesPerTap = Self("invalidTreesPerTap")
    /// A username is out of its rules.
    static let invalidUsername = Self("invalidUsername")
    /// The route does not answer this method; `Allow` lists those it does.
    static let methodNotAllowed = Self("methodNotAllowed")
    /// A dataset append holds no rows.
    static let noRows = Self("noRows")
    /// A tap group finds no room: trees in the way, or too far from the session's trees (ReforestAR's
    /// "couldn't find space"); `details.trees` are the trees in the way.
    static let noSpace = Self("noSpace")
    /// The spec is a widget, not an environment: a scene needs targets.
    static let notAnEnvironment = Self("notAnEnvironment")
    /// A tap does not meet the world.
    static let notFinite = Self("notFinite")
    /// Nothing is there, or the caller may not know it is.
    static let notFound = Self("notFound")
    /// An uploaded model could not be read.
    static let notReadable = Self("notReadable")
    /// An asset is still being processed.
    static let notReady = Self("notReady")
    /// A body is not UTF-8 text.
    static let notUTF8 = Self("notUTF8")
    /// A tap lands too far away.
    static let outOfRange = Self("outOfRange")
    /// A tap is outside the frame it names.
    static let outsideFrame = Self("outsideFrame")
    /// `If-Match` names a version that is not the latest.
    static let preconditionFailed = Self("preconditionFailed")
    /// The project is private: it cannot be shared by a room link.
    static let privateProject = Self("privateProject")
    /// No QR Code can hold this link.
    static let qrFailed = Self("qrFailed")
    /// The project or the account has used its quota.
    static let quotaExceeded = Self("quotaExceeded")
    /// `Range` names no bytes of the file.
    static let rangeNotSatisfiable = Self("rangeNotSatisfiable")
    /// A widget or chart cannot be drawn.
    static let renderFailed = Self("renderFailed")
    /// The room holds as many members as it may.
    static let roomFull = Self("roomFull")
    /// The room link's time is over.
    static let roomLinkExpired = Self("roomLinkExpired")
    /// The room link was revoked.
    static let roomLinkRevoked = Self("roomLinkRevoked")
    /// The video relay (SFU) cannot be reached.
    static let sfuUnavailable = Self("sfuUnavailable")
    /// The file store cannot be used just now.
    static let storageUnavailable = Self("storageUnavailable")
    /// Too much of this work is under way; `Retry-After` says when to try again.
    static let tooBusy = Self("tooBusy")
    /// Relocalizing needs more observed anchors.
    static let tooFewObservations = Self("tooFewObservations")
    /// The body is larger than the route takes.
    static let tooLarge = Self("tooLarge")
    /// Too many failed sign-ins from this address; `Retry-After` says when to try again.
    static let tooManyAttempts = Self("tooManyAttempts")
    /// The account holds as many live connections as it may.
    static let tooManyConnections = Self("tooManyConnections")
    /// TURN credentials are asked for too often by one account.
    static let tooManyCredentials = Self("tooManyCredentials")
    /// Too many sign-ups from this address; `Retry-After` says when to try again.
    static let tooManySignUps = Self("tooManySignUps")
    /// A plan mixes more species than it may.
    static let tooManySpecies = Self("tooManySpecies")
    /// The server has no TURN server to give credentials for.
    static let turnUnavailable = Self("turnUnavailable")
    /// No bearer token, or one that is not valid.
    static let unauthorized = Self("unauthorized")
    /// The database does not answer (readiness).
    static let unavailable = Self("unavailable")
    /// An observation names an anchor the project does not have.
    static let unknownAnchor = Self("unknownAnchor")
    /// A tap names a camera frame the room does not have.
    static let unknownFrame = Self("unknownFrame")
    /// A signal names nobody in the room.
    static let unknownMember = Self("unknownMember")
    /// A species name matches none of the catalogue's.
    static let unknownSpecies = Self("unknownSpecies")
    /// The body's content type is not one the route reads.
    static let unsupportedMediaType = Self("unsupportedMediaType")
    /// An upload is not a GLB or USDZ model.
    static let unsupportedModel = Self("unsupportedModel")
    /// A live route was asked for without a WebSocket upgrade.
    static let upgradeRequired = Self("upgradeRequired")
    /// The username belongs to another account.
    static let usernameTaken = Self("usernameTaken")
    /// A password is not 10 to 200 characters.
    static let weakPassword = Self("weakPassword")

    /// Every code, as `openapi.yaml` lists them.
    static let all: [Self] = [
        .ambiguousSpecies, .badCredentials, .badRequest, .cannotPlan, .cannotRelocalize, .conflict,
        .databaseUnavailable, .digestMismatch, .draining, .exportFailed, .fontsMissing, .forbidden,
        .insufficientStorage, .internal, .invalid, .invalidAnchorCap, .invalidArea, .invalidBubble, .invalidClientId,
        .invalidLifetime,
        .invalidLocation,
        .invalidName, .invalidOrientation, .invalidPose, .invalidPosition, .invalidRow, .invalidScale, .invalidSession,
        .invalidShare, .invalidSignal, .invalidSlug, .invalidSpacing, .invalidSpatialInput, .invalidSpec,
        .invalidTreesPerTap, .invalidUsername, .methodNotAllowed, .noRows, .noSpace, .notAnEnvironment, .notFinite,
        .notFound,
        .notReadable, .notReady, .notUTF8, .outOfRange, .outsideFrame, .preconditionFailed, .privateProject, .qrFailed,
        .quotaExceeded, .rangeNotSatisfiable, .renderFailed, .roomFull, .roomLinkExpired, .roomLinkRevoked,
        .sfuUnavailable, .storageUnavailable, .tooBusy, .tooFewObservations, .tooLarge, .tooManyAttempts,
        .tooManyConnections, .tooManyCredentials, .tooManySignUps, .tooManySpecies, .turnUnavailable, .unauthorized,
        .unavailable, .unknownAnchor, .unknownFrame, .unknownMember, .unknownSpecies, .unsupportedMediaType,
        .unsupportedModel, .upgradeRequired, .usernameTaken, .weakPassword,
    ]
}
