import ARVisPipeline
import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(CDispatch)
// With the server's packages linked, `struct stat` is also found through Dispatch's C module, and
// member-import visibility then asks for that module by name.
import CDispatch
#endif

/// The one way commands write files: atomically (a temporary file beside the target, then a rename),
/// keeping an existing file's permissions, writing through a symbolic link to the file it names,
/// and saying what was written on standard error.
enum OutputFile {
    /// Writes `data` to `path` and, if `report`, says so with `what` (such as "1024×768 PNG").
    /// Problems are printed and become exit code 2.
    static func write(_ data: Data, to path: String, what: String? = nil, report: Bool) throws {
        do throws(Problem) {
            try replace(path, with: data)
        } catch {
            throw CommandFailure.usage("cannot write \(path): \(error.message)")
        }
        if report { Console.error("wrote \(path) (\(ByteCount(data.count))\(what.map { ", \($0)" } ?? ""))") }
    }

    /// Why a file could not be written.
    struct Problem: Error {
        let message: String
    }

    /// Writes through links, into a temporary sibling, then renames it over the target.
    static func replace(_ path: String, with data: Data) throws(Problem) {
        let target = try resolvedTarget(path)
        let folder =
            (target as NSString).deletingLastPathComponent.isEmpty
            ? "." : (target as NSString).deletingLastPathComponent
        var status = stat()
        let existingMode: mode_t? = stat(target, &status) == 0 ? status.st_mode & 0o7777 : nil
        if existingMode != nil, (status.st_mode & S_IFMT) == S_IFDIR { throw Problem(message: "it is a folder") }
        var template = Array("\(folder)/.\((target as NSString).lastPathComponent).arvis-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Problem(message: reason(errno, folder: folder)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let failure = Console.writeAll([UInt8](data), to: descriptor)
        let mode = existingMode ?? (0o666 & ~currentUmask())
        let finished = failure == nil && fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0
        let finishError = errno
        close(descriptor)
        guard finished, rename(temporary, target) == 0 else {
            let code = failure ?? (finished ? errno : finishError)
            unlink(temporary)
            throw Problem(message: reason(code, folder: folder))
        }
    }

    /// `path`, or the file a symbolic link at `path` names (through every link).
    private static func resolvedTarget(_ path: String) throws(Problem) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw Problem(message: "it is a symbolic link to a file that does not exist")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    private static func reason(_ code: Int32, folder: String) -> String {
        switch code {
        case ENOENT: "the folder \(folder) does not exist"
        case ENOTDIR: "\(folder) is not a folder"
        case EACCES, EPERM: "permission denied in \(folder)"
        case ENOSPC: "the disk is full"
        default: String(cString: strerror(code))
        }
    }
}

/// The options of commands that write files.
struct ReportingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print nothing about the files written.")
    var quiet = false

    /// Writes `data` to `path` atomically and reports it unless `--quiet`.
    func save(_ data: Data, to path: String, what: String? = nil) throws {
        if !quiet { Console.endProgress() }
        try OutputFile.write(data, to: path, what: what, report: !quiet)
    }

    /// Shows progress of long work on a terminal, unless `--quiet`.
    func progress(_ text: String) {
        if !quiet { Console.progress(text) }
    }
}
