import ARVisSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SafeResourceLoader {
    /// Reads a local file if it is inside the policy's root, after symbolic links are resolved; only
    /// regular files, never more than the size limit.
    func readFile(_ path: String, reference: String) throws(PipelineError) -> [UInt8] {
        guard let root = policy.fileRoot else {
            throw PipelineError(
                .refused, "local files are not allowed here (the command line allows them with --allow-files DIR)",
                location: reference)
        }
        let rootPath = Self.lexicallyNormalized(root)
        let base = baseDirectory.map(Self.lexicallyNormalized) ?? rootPath
        let full = Self.lexicallyNormalized(path.hasPrefix("/") ? path : base + "/" + path)
        let outside = PipelineError(.refused, "the file is outside the allowed folder \(rootPath)", location: reference)
        guard Self.isInside(full, rootPath) else { throw outside }
        guard let resolvedRoot = Self.realPath(rootPath) else {
            throw PipelineError(.notFound, "the allowed folder \(rootPath) does not exist", location: reference)
        }
        guard let resolved = Self.realPath(full) else {
            throw PipelineError(.notFound, "no such file \(full)", location: reference)
        }
        guard Self.isInside(resolved, resolvedRoot) else { throw outside }
        do throws(PipelineError) {
            return try BoundedRead.file(resolved, maximumBytes: policy.maximumBytes, regularOnly: true)
        } catch {
            throw PipelineError(error.code, error.message, location: reference, cause: error.cause)
        }
    }

    /// `path` made absolute, with `.`, `..` and repeated slashes resolved by text alone.
    static func lexicallyNormalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
