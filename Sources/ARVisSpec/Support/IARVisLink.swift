/// The deep links iARVis registered (`iarvis://…`), which open a spec in the app on a phone.
///
/// ```swift
/// IARVisLink.openVisConfig("https://arvis.example/s/museum/ensor.json")
/// // "iARVis://openVisConfig?url=https%3A%2F%2Farvis.example%2Fs%2Fmuseum%2Fensor.json"
/// ```
public enum IARVisLink {
    /// The link that makes iARVis load the spec at `url`: `iARVis://openVisConfig?url=` and the URL
    /// with everything but RFC 3986's unreserved characters percent-encoded. (iARVis registered the
    /// scheme but never implemented `url=`; a client that does opens it.)
    public static func openVisConfig(_ url: String) -> String {
        "iARVis://openVisConfig?url=" + percentEncoded(url)
    }

    /// The link that makes today's iARVis app apply the environment `json` directly:
    /// `iARVis://openVisConfig?json=` and the JSON percent-encoded.
    public static func openVisConfig(json: String) -> String {
        "iARVis://openVisConfig?json=" + percentEncoded(json)
    }

    /// `text` as UTF-8 with every byte other than A–Z, a–z, 0–9, `-`, `.`, `_` and `~` written `%XX`.
    public static func percentEncoded(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
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
