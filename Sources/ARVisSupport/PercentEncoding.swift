/// RFC 3986 percent-encoding, as iARVis links and S3's SigV4 signatures both want it: every UTF-8
/// byte other than the unreserved `A–Z a–z 0–9 - . _ ~` written `%XY` in upper case.
///
/// ```swift
/// PercentEncoding.encoded("a b/ключ")                       // "a%20b%2F%D0%BA%D0%BB%D1%8E%D1%87"
/// PercentEncoding.encoded("a b/c", keepingSlashes: true)    // "a%20b/c"
/// ```
public enum PercentEncoding {
    /// `text` percent-encoded; `/` kept as it is when `keepingSlashes` (a URL path's segments).
    public static func encoded(_ text: String, keepingSlashes: Bool = false) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(byte)
            case UInt8(ascii: "/") where keepingSlashes:
                encoded.append(byte)
            default:
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 15)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The upper-case hexadecimal digits, as UTF-8.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
