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
            throw PipelineError(code: .refused, message: "local files are not allowed here (the command line allows them with --allow-files DIR)", subject: reference)
        }
        let rootPath = Self.lexicallyNormalized(root)
        let base = baseDirectory.map(Self.lexicallyNormalized) ?? rootPath
        let full = Self.lexicallyNormalized(path.hasPrefix("/") ? path : base + "/" + path)
        let outside = PipelineError(code: .refused, message: "the file is outside the allowed folder \(rootPath)", subject: reference)
        guard Self.isInside(full, rootPath) else { throw outside }
        guard let resolvedRoot = Self.realPath(rootPath) else {
            throw PipelineError(code: .notFound, message: "the allowed folder \(rootPath) does not exist", subject: reference)
        }
        guard let resolved = Self.realPath(full) else {
            throw PipelineError(code: .notFound, message: "no such file \(full)", subject: reference)
        }
        guard Self.isInside(resolved, resolvedRoot) else { throw outside }
        return try Self.readRegularFile(resolved, maximumBytes: policy.maximumBytes, reference: reference)
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

    /// The bytes of a regular file, read in chunks so a file that grows cannot exceed the limit.
    static func readRegularFile(_ path: String, maximumBytes: Int, reference: String) throws(PipelineError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PipelineError(code: .unreadable, message: "cannot open \(path): \(String(cString: strerror(errno)))", subject: reference)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw PipelineError(code: .unreadable, message: "\(path) is not a regular file", subject: reference)
        }
        guard Int(status.st_size) <= maximumBytes else {
            throw PipelineError(code: .tooLarge, message: "\(status.st_size) bytes is over the \(maximumBytes)-byte limit", subject: reference)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw PipelineError(code: .unreadable, message: "cannot read \(path): \(String(cString: strerror(errno)))", subject: reference)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= maximumBytes else {
                throw PipelineError(code: .tooLarge, message: "the file grew past the \(maximumBytes)-byte limit", subject: reference)
            }
        }
    }
}
