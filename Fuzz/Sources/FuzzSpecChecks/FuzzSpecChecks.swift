public import ARVisSpec
import Foundation
import FuzzDriver

/// The depth the fuzzed readers allow.
public let options = ReadOptions(maximumDepth: 64)

/// A document read writes as canonical JSON that reads back to it, and writes the same again.
public func checkCanonicalJSON(_ document: SpecDocument) {
    let written = SpecWriter.json(document)
    let again = SpecReader.read(json: Data(written.utf8), options: options).document
    FuzzDriver.require(again == document, "canonical JSON does not read back to the same document")
    if let again { FuzzDriver.require(SpecWriter.json(again) == written, "canonical JSON is not stable") }
}
