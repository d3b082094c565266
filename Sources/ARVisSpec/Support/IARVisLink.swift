import ARVisSupport

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
        PercentEncoding.encoded(text)
    }
}
