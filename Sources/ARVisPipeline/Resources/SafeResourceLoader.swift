import ARVisSpec
public import ARVisSupport
import Foundation

/// Loads resources under a ``ResourcePolicy``: local files only inside the policy's folder, web
/// resources only from addresses the policy allows, checked after DNS resolution and again after
/// every redirect, with the size capped while the bytes stream in and an overall time limit.
///
/// Plain `http` connects to the very address that was checked (the URL's host travels in the `Host`
/// header), so a second DNS answer cannot send it elsewhere. For `https` the connection is made by
/// name; a name re-pointed at a private server after the check would also need that server to hold
/// a certificate for the name, which a private server does not.
///
/// ```swift
/// let loader = SafeResourceLoader(policy: ResourcePolicy(fileRoot: "/srv/specs"), baseDirectory: "/srv/specs/museum")
/// let bytes = try await loader.load("images/ensor.jpg")
/// ```
public struct SafeResourceLoader: ResourceLoader {
    /// What may be read.
    public var policy: ResourcePolicy
    /// The folder relative paths start from (the spec's folder); the policy's root when `nil`.
    public var baseDirectory: String?

    /// Creates a loader.
    public init(policy: ResourcePolicy = ResourcePolicy(), baseDirectory: String? = nil) {
        self.policy = policy
        self.baseDirectory = baseDirectory
    }

    /// Reads a file inside the policy's folder, downloads an allowed web address or decodes a `data:` URL.
    public func load(_ reference: String) async throws(PipelineError) -> [UInt8] {
        switch ResourceReference(reference) {
        case .file(let path): return try readFile(path, reference: reference)
        case .web(let url, _): return try await download(url, reference: reference)
        case .data(let text): return try DataURL.decode(text, maximumBytes: policy.maximumBytes, reference: reference)
        case .unsupported(let scheme):
            throw PipelineError(
                .refused, "the \"\(scheme):\" scheme names nothing that can be loaded", location: reference)
        }
    }
}

/// `data:[type][;base64],payload` URLs.
enum DataURL {
    static func decode(_ text: String, maximumBytes: Int, reference: String) throws(PipelineError) -> [UInt8] {
        guard let comma = text.firstIndex(of: ",") else {
            throw PipelineError(.unreadable, "a data URL needs a comma before its data", location: reference)
        }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = String(text[text.index(after: comma)...])
        let bytes: [UInt8]
        if header.hasSuffix(";base64") {
            guard
                let data = Data(
                    base64Encoded: ResourceReference.percentDecoded(payload), options: .ignoreUnknownCharacters)
            else {
                throw PipelineError(.unreadable, "the data URL's base64 is malformed", location: reference)
            }
            bytes = [UInt8](data)
        } else {
            bytes = Array(ResourceReference.percentDecoded(payload).utf8)
        }
        guard bytes.count <= maximumBytes else {
            throw PipelineError(
                .tooLarge, "\(bytes.count) bytes is over the \(maximumBytes)-byte limit", location: reference)
        }
        return bytes
    }
}
