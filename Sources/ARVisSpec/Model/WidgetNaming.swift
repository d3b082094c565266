/// The names ARVis gives widgets and anchors in file names and scene ids, shared by the renderer and
/// the scene composer so the same widget has the same name in both.
package enum WidgetNaming {
    /// Letters, digits, `-` and `_` only (anything else becomes `_`).
    package static func safe(_ text: String) -> String {
        let mapped = text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
                ? Character(scalar) : "_"
        }
        return mapped.isEmpty ? "_" : String(mapped)
    }

    /// `image1`, `object2`: a tracked target by kind and position.
    package static func target(_ kind: String, index: Int) -> String { "\(kind)\(index + 1)" }
    /// `world-lobby`, `geo-tower`: an anchor by kind and id.
    package static func anchor(_ kind: String, id: String) -> String { "\(kind)-\(safe(id))" }
    /// `image1-widget2`: a target's widget by position.
    package static func widget(of target: String, index: Int) -> String { "\(target)-widget\(index + 1)" }
    /// `image1-widget2-detail`: a child widget by its key. A long key (a link's embedded JSON, which
    /// iARVis keys opened children by) is cut to its first 24 characters and a hash of the whole.
    package static func child(of parent: String, key: String) -> String {
        let name = safe(key)
        guard name.count > 40 else { return "\(parent)-\(name)" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, stable across runs and platforms
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(parent)-\(name.prefix(24))-\(String(hash, radix: 16))"
    }
}
