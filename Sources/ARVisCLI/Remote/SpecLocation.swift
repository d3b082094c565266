import Foundation

/// Where a spec lives on a server, from any of its URLs: the hub page `…/s/PROJECT/NAME`, the
/// spec `…/s/PROJECT/NAME.json`, its live stream `…/live/PROJECT/NAME`, or the API's
/// `…/api/v1/projects/PROJECT/specs/NAME`.
struct SpecLocation: Equatable {
    /// Scheme, host and port.
    var server: URL
    var project: String
    var name: String

    init(_ text: String) throws(SpecLocationError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty
        else {
            throw SpecLocationError(
                "'\(text)' is not an http or https URL of a spec, such as http://127.0.0.1:8080/s/museum/tour")
        }
        let parts = components.path.split(separator: "/").map(String.init)
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host
        origin.port = components.port
        guard let server = origin.url else { throw SpecLocationError("'\(text)' has no usable host") }
        self.server = server
        if parts.count == 3, parts[0] == "s" || parts[0] == "live" {
            project = parts[1]
            name = parts[2].hasSuffix(".json") ? String(parts[2].dropLast(5)) : parts[2]
        } else if parts.count == 6, parts[0] == "api", parts[1] == "v1", parts[2] == "projects", parts[4] == "specs" {
            project = parts[3]
            name = parts[5]
        } else {
            throw SpecLocationError(
                "'\(text)' names no spec: use …/s/PROJECT/NAME or …/api/v1/projects/PROJECT/specs/NAME")
        }
    }

    /// The spec's live stream as a WebSocket URL (`ws:` or `wss:`).
    var liveURL: String {
        let scheme = server.scheme == "https" ? "wss" : "ws"
        let host = server.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "localhost"
        return "\(scheme)://\(host)\(server.port.map { ":\($0)" } ?? "")/live/\(project)/\(name)"
    }
}

/// A URL that does not name a spec.
struct SpecLocationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
