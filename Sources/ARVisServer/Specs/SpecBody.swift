import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import ARVisSupport
import ARVisWire
import Foundation

extension SpecVersion {
    /// The stored spec as a document. One that no longer reads (the grammar changed under it) is a
    /// `422` asking for it to be saved again.
    func document() throws -> SpecDocument {
        guard let document = SpecSyntax(storedMediaType: mediaType).read(Data(body ?? []), file: name).document else {
            throw APIError.invalid(.invalidSpec, "the stored spec '\(name)' no longer reads; save it again")
        }
        return document
    }

    /// The strong entity tag of this version: its number and a prefix of its content hash, so a
    /// spec deleted and created again never matches an old tag.
    var tag: EntityTag { EntityTag(version: version, contentHash: contentHash) }

    /// ``tag`` as the `ETag` field and the API's `etag` members write it.
    var etag: String { tag.field }
}
