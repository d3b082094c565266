import Foundation

/// A format files are written in, chosen by a file's extension or by a body's media type: the one
/// place either becomes a format, for the command line (`-o chart.png`) and the server
/// (`Content-Type`, `…/scene.glb`) alike.
///
/// ```swift
/// WidgetFormat(path: "out/chart.PNG")               // .png
/// ModelFormat(mediaType: "model/vnd.usd+zip")       // .usdz
/// ```
public protocol FileFormat: RawRepresentable<String>, CaseIterable, Sendable {
    /// The extensions of this format's files, lowercased, without the dot.
    var fileExtensions: [String] { get }
    /// The media types that name this format, lowercased, without parameters.
    var mediaTypes: [String] { get }
}

extension FileFormat {
    /// The format whose files have the extension `fileExtension` (any case, without the dot).
    public init?(fileExtension: some StringProtocol) {
        let lowered = fileExtension.lowercased()
        guard !lowered.isEmpty, let format = Self.allCases.first(where: { $0.fileExtensions.contains(lowered) }) else {
            return nil
        }
        self = format
    }

    /// The format of the file at `path`, by its name's extension; `nil` for a name without one or
    /// with another.
    public init?(path: some StringProtocol) {
        self.init(fileExtension: Self.fileExtension(of: path))
    }

    /// The format a `Content-Type` names (its parameters and case ignored).
    public init?(mediaType: some StringProtocol) {
        let essence = Self.essence(ofMediaType: mediaType)
        guard let format = Self.allCases.first(where: { $0.mediaTypes.contains(essence) }) else { return nil }
        self = format
    }

    /// A `Content-Type`'s type and subtype, lowercased, without parameters or spaces.
    public static func essence(ofMediaType mediaType: some StringProtocol) -> String {
        (mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The extension of the file at `path` (lowercased, without the dot), or `""` when its name has
    /// none.
    public static func fileExtension(of path: some StringProtocol) -> String {
        (String(path) as NSString).pathExtension.lowercased()
    }
}
