import ARVisRender
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads the images a spec shows (`--fetch`): http(s) URLs over the network, other paths from
/// disk relative to the spec file. Failures are reported and leave a placeholder.
struct ResourceFetcher {
    let baseDirectory: String
    let timeout: TimeInterval = 15
    /// The largest file accepted.
    let maximumBytes = 20_000_000

    init(relativeTo specPath: String) {
        baseDirectory = specPath == "-" ? FileManager.default.currentDirectoryPath : (specPath as NSString).deletingLastPathComponent
    }

    func fetch(_ urls: [String]) -> [String: RenderOptions.Resource] {
        var resources: [String: RenderOptions.Resource] = [:]
        for url in urls {
            switch load(url) {
            case .success(let bytes) where bytes.count <= maximumBytes:
                resources[url] = RenderOptions.Resource(data: bytes)
            case .success(let bytes):
                Console.error("warning: \(url): \(bytes.count) bytes is over the \(maximumBytes)-byte limit; a placeholder is drawn")
            case .failure(let problem):
                Console.error("warning: \(url): \(problem.message); a placeholder is drawn")
            }
        }
        return resources
    }

    struct Problem: Error {
        let message: String
    }

    private func load(_ url: String) -> Result<[UInt8], Problem> {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            let path = url.hasPrefix("file://") ? String(url.dropFirst(7)) : url
            let full = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: full) else { return .failure(Problem(message: "no such file \(full)")) }
            return .success([UInt8](data))
        }
        return download(parsed)
    }

    private func download(_ url: URL) -> Result<[UInt8], Problem> {
        final class Box: @unchecked Sendable {
            var result: Result<[UInt8], Problem> = .failure(Problem(message: "timed out"))
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("arvis-render", forHTTPHeaderField: "User-Agent")
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                box.result = .failure(Problem(message: error.localizedDescription))
            } else if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                box.result = .failure(Problem(message: "HTTP \(http.statusCode)"))
            } else {
                box.result = .success([UInt8](data ?? Data()))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut { task.cancel() }
        return box.result
    }
}
