/// Which URLs may become something a reader can click, and which may be loaded into a page.
///
/// A spec comes from anyone, so its URLs are checked the way a browser would read them: HTML
/// character references are decoded, tabs and line breaks inside the text are dropped and leading
/// control characters and spaces are trimmed before the scheme is read. Only `http`, `https` and
/// `mailto` links (and relative ones) may be followed; everything else, `javascript:`, `vbscript:`,
/// `data:` and unknown schemes included, is shown as text. Pages may load `http`, `https` and
/// `data:` URLs of images, audio and video.
///
/// ```swift
/// LinkPolicy.isNavigable("https://example.org")        // true
/// LinkPolicy.isNavigable(" JaVa&#x53;cript:alert(1)")   // false
/// ```
public enum LinkPolicy {
    /// The schemes a link may have.
    public static let navigableSchemes: Set<String> = ["http", "https", "mailto"]

    /// Whether `url` may become a link: `http`, `https`, `mailto` or relative.
    public static func isNavigable(_ url: String) -> Bool {
        guard let normalized = normalized(url) else { return false }
        guard let scheme = scheme(of: normalized) else { return true }
        return navigableSchemes.contains(scheme)
    }

    /// `url` if it may become a link, otherwise `nil`.
    public static func navigable(_ url: String?) -> String? {
        url.flatMap { isNavigable($0) ? $0 : nil }
    }

    /// Whether a page may load `url` as an image, audio or video source: `http`, `https`, a `data:`
    /// URL of an image, audio or video type, or a relative reference.
    public static func isLoadable(_ url: String) -> Bool {
        guard let normalized = normalized(url) else { return false }
        switch scheme(of: normalized) {
        case nil, "http", "https": return true
        case "data":
            let type = normalized.dropFirst(5).lowercased()
            return type.hasPrefix("image/") || type.hasPrefix("audio/") || type.hasPrefix("video/")
        default: return false
        }
    }

    /// The lower-cased scheme of `text` (`https`, `iarvis` …), or `nil` for a relative reference.
    public static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// Why `url` is not a link a reader may follow, for validation messages; `nil` when it is one.
    public static func refusal(_ url: String) -> String? {
        guard let normalized = normalized(url) else { return "it contains control characters" }
        guard let scheme = scheme(of: normalized), !navigableSchemes.contains(scheme) else { return nil }
        return "links with the \"\(scheme):\" scheme are not followed"
    }

    /// The text as a browser reads it before looking at the scheme, or `nil` if it holds control characters.
    static func normalized(_ url: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in decodingCharacterReferences(url).unicodeScalars
        where scalar != "\t" && scalar != "\n" && scalar != "\r" {
            if scalars.isEmpty && scalar.value <= 0x20 { continue }
            if scalar.value < 0x20 || scalar.value == 0x7F { return nil }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// `text` with `&#NN;`, `&#xNN;` and the named references that can spell a scheme decoded.
    static func decodingCharacterReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            if let (scalar, length) = reference(at: rest) {
                result.unicodeScalars.append(scalar)
                rest = rest.dropFirst(length)
            } else {
                result.append("&")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static let namedReferences: [String: Unicode.Scalar] = [
        "colon": ":", "tab": "\t", "newline": "\n", "sol": "/", "lpar": "(", "rpar": ")", "amp": "&", "nbsp": " ",
    ]

    /// The character a reference at the start of `text` stands for, and how many characters it takes
    /// (the closing `;` is optional, as browsers read it).
    private static func reference(at text: Substring) -> (Unicode.Scalar, Int)? {
        let body = text.dropFirst().prefix(16)
        let scalar: Unicode.Scalar?
        let name: Substring
        if body.hasPrefix("#x") || body.hasPrefix("#X") {
            name = body.dropFirst(2).prefix { $0.isHexDigit }
            scalar = UInt32(name, radix: 16).flatMap(Unicode.Scalar.init)
        } else if body.hasPrefix("#") {
            name = body.dropFirst().prefix { $0.isASCII && $0.isNumber }
            scalar = UInt32(name).flatMap(Unicode.Scalar.init)
        } else {
            name = body.prefix { $0.isASCII && $0.isLetter }
            scalar = namedReferences[name.lowercased()]
        }
        guard let scalar, !name.isEmpty else { return nil }
        let prefix = body.hasPrefix("#x") || body.hasPrefix("#X") ? 2 : body.hasPrefix("#") ? 1 : 0
        let afterName = body.dropFirst(prefix + name.count)
        return (scalar, 1 + prefix + name.count + (afterName.first == ";" ? 1 : 0))
    }
}
