import ARVisSupport
import ARVisWire
import Foundation
import Testing

struct DigestFieldTests {
    /// The SHA-256 of nothing, as RFC 9530's examples write it.
    static let empty = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

    @Test func theSHA256MemberIsReadAmongOthers() throws {
        let bytes = try #require(Data(base64Encoded: Self.empty))
        #expect(DigestField(parsing: "sha-512=:AA==:, SHA-256=:\(Self.empty):") == .sha256(Array(bytes)))
        #expect(DigestField(parsing: DigestField.value(sha256: Array(bytes))) == .sha256(Array(bytes)))
    }

    @Test(arguments: ["", "sha-512=:AA==:", "unixsum=30637"])
    func aFieldWithoutSHA256DeclaresNothing(_ field: String) {
        #expect(DigestField(parsing: field) == .absent)
    }

    @Test(arguments: ["sha-256=\(empty)", "sha-256=:AA==:", "sha-256=::", "sha-256=:not base64!:"])
    func aBrokenSHA256MemberIsMalformed(_ field: String) {
        #expect(DigestField(parsing: field) == .malformed)
    }
}
