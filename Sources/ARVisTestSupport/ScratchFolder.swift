public import Foundation

/// A temporary folder for one test, removed when the test ends (when the last reference goes).
///
/// ```swift
/// struct MyTests {
///     let scratch = ScratchFolder("render")
///     @Test func writes() throws { let out = try scratch.folder().appendingPathComponent("a.svg") … }
/// }
/// ```
public final class ScratchFolder: Sendable {
    /// The folder; everything under it is deleted with it.
    public let url: URL

    /// Creates `…/arvis-NAME-UUID` in the system's temporary folder.
    public init(_ name: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A new empty folder inside.
    public func folder() throws -> URL {
        let folder = url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A file named `name` in a new folder inside, holding `contents` when given.
    public func file(_ name: String, _ contents: String? = nil) throws -> URL {
        let file = try folder().appendingPathComponent(name)
        if let contents { try Data(contents.utf8).write(to: file) }
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
