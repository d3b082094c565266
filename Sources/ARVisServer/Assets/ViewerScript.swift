import ARVisGraphics

/// The orbit viewer's script, served at `/viewer.js`: a GLB drawn with WebGL 2 and no library, so
/// the page needs nothing from outside the server. Its source is `Web/viewer.js`, embedded by
/// `Scripts/embed_web.py`.
enum ViewerScript {
    /// The script's `ETag`: the first 16 hex digits of its SHA-256.
    static let etag = "\"\(SHA256.hexDigest(of: Array(source.utf8)).prefix(16))\""
}
