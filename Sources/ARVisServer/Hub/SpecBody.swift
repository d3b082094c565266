import ARVisSpec
import ARVisSpecYAML
import ARVisStore
import ARVisSupport
import Foundation

extension SpecVersion {
    /// The stored spec as a document. One that no longer reads (the grammar changed under it) is a
    /// `422` asking for it to be saved again.
    func document() throws -> SpecDocument {
        guard let document = SpecSyntax(mediaType: mediaType).read(Data(body ?? []), file: name).document else {
            throw APIError.invalid("invalidSpec", "the stored spec '\(name)' no longer reads; save it again")
        }
        return document
    }

    /// The strong `ETag` of this version: its number and a prefix of its content hash, so a spec
    /// deleted and created again never matches an old tag.
    var etag: String { EntityTag(version: version, contentHash: contentHash).field }
}
