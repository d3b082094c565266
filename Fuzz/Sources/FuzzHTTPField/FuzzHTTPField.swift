// The request header fields the server reads with its own code: an `If-Match` or `If-None-Match`
// list (`EntityTagList`, which a spec save and every `304` read) and a live stream's `Last-Event-ID`
// (`SpecCursor`). The first byte picks which (even: a list, odd: a cursor), the rest is the field.
// A list read names each of its tags, strongly only the strong ones, and written again reads back the
// same; a version's tag reads back its number and hash prefix. A cursor holds no negative sequence,
// and written as an event's `id:` reads back the same.

import ARVisSupport
import ARVisWire
import FuzzDriver

@_cdecl("FuzzHTTPField_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.run(argc, argv, test)
}

func test(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let field = String(decoding: bytes.dropFirst(), as: UTF8.self)
    if first.isMultiple(of: 2) { checkList(field) } else { checkCursor(field) }
}

/// An `If-Match` or `If-None-Match` field.
func checkList(_ field: String) {
    guard let list = EntityTagList(parsing: field) else { return }
    guard case .tags(let tags) = list else {
        return FuzzDriver.require(EntityTagList(parsing: list.field) == .any, "`*` written reads back otherwise")
    }
    FuzzDriver.require(!tags.isEmpty, "a list of no tags was read")
    for tag in tags {
        FuzzDriver.require(EntityTag(tag.opaque, weak: tag.isWeak) == tag, "a tag holds what a tag cannot: \(tag)")
        FuzzDriver.require(list.names(tag, comparison: .weak), "a list does not name its own tag \(tag)")
        FuzzDriver.require(
            list.names(tag, comparison: .strong) == !tag.isWeak, "strong comparison of \(tag) against its list")
        checkVersion(tag)
    }
    // A tag may hold `%`: written, the field percent-decodes to other tags (generated clients
    // percent-encode quotes, and the server reads a field decoded when it decodes).
    if !list.field.contains("%") {
        FuzzDriver.require(EntityTagList(parsing: list.field) == list, "a list written reads back otherwise")
    }
}

/// A tag's version: a positive number, and the tag the server writes of it reads it back.
func checkVersion(_ tag: EntityTag) {
    guard let version = tag.version else { return }
    FuzzDriver.require(version.number > 0, "a tag names version \(version.number)")
    guard version.hashPrefix.count <= 16 else { return }
    let written = EntityTag(version: version.number, contentHash: version.hashPrefix).version
    FuzzDriver.require(
        written?.number == version.number && written?.hashPrefix == version.hashPrefix,
        "a version's tag reads back another version: \(tag)")
}

/// A `Last-Event-ID` field.
func checkCursor(_ field: String) {
    let cursor = SpecCursor(lastEventID: field)
    FuzzDriver.require(cursor.rows.values.allSatisfy { $0 >= 0 }, "a cursor holds a negative sequence")
    FuzzDriver.require(!cursor.rows.keys.contains(""), "a cursor names a dataset without a name")
    FuzzDriver.require(
        SpecCursor(lastEventID: cursor.lastEventID) == cursor, "a cursor written reads back otherwise: \(cursor)")
}
