import ARVisStore
import ARVisTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

@testable import ARVisServer

/// What every request passes: the token, the log line, the metrics, and the hub's reads answered
/// without the router.
struct ServerResponderTests: ServerTesting {
    let scratch = ScratchFolder("server-responder")

    @Test func hubReadsAreTakenApartAsTheRouterTakesThem() {
        #expect(HubRead(path: "/s/museum/tour.json") == .specFile(project: "museum", name: "tour"))
        #expect(HubRead(path: "/s/p/n.json") == .specFile(project: "p", name: "n"))
        #expect(HubRead(path: "/s/p/a.b.json") == .specFile(project: "p", name: "a.b"), "names are checked later")
        #expect(HubRead(path: "/s/m%C3%BC/t.json") == .specFile(project: "m%C3%BC", name: "t"), "raw, as the router's")
        #expect(HubRead(path: "/s/p/n/widgets/1.png") == .widget(project: "p", name: "n", file: "1.png"))
        #expect(HubRead(path: "/s/p/n.json/widgets/x") == .widget(project: "p", name: "n.json", file: "x"))
        for other in [
            "/s/p/.json", "/s//n.json", "/s/p/n.json/", "/s/p/q/n.json", "/S/p/n.json", "/s/p/n.jso", "/s/p/n",
            "/x/p/n.json", "s/p/n.json", "/s/p", "/", "", "/s/p/n.JSON", "/s/p/n/widgets/", "/s/p/n/widgets",
            "/s/p/n/widget/1.png", "/s/p//widgets/1.png", "/s/p/n/widgets/1.png/", "/s/p/n/widgets/1/2", "/s/",
            "/s/p/n/scene.json", "/s/p/n/qr.png",
        ] {
            #expect(HubRead(path: other) == nil, "\(other)")
        }
    }

    @Test func aMembersTokenOpensAPrivateSpecAndItsWidgets() async throws {
        try await withServer { client in
            let (owner, slug) = try await projectWithExample(
                client, "laptop-benchmark-bar-chart.json", as: "chart", user: "ana", project: "Lab",
                visibility: "private")
            #expect(try await client.execute(uri: "/s/\(slug)/chart.json", method: .get).status == .notFound)
            let member = try await client.execute(
                uri: "/s/\(slug)/chart.json", method: .get,
                headers: [.authorization: try #require(owner[.authorization])])
            #expect(member.status == .ok)
            #expect(member.headers[.contentType] == "application/json; charset=utf-8")
            #expect(member.headers[.xContentTypeOptions] == "nosniff")
            let bearer: HTTPFields = [.authorization: try #require(owner[.authorization])]
            #expect(try await client.execute(uri: "/s/\(slug)/chart/widgets/1.svg", method: .get).status == .notFound)
            let widget = try await client.execute(uri: "/s/\(slug)/chart/widgets/1.svg", method: .get, headers: bearer)
            #expect(widget.status == .ok)
            #expect(widget.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(widget.headers[.contentSecurityPolicy] != nil)
            let missing = try await client.execute(uri: "/s/nowhere/chart.json", method: .get)
            #expect(missing.status == .notFound)
            #expect(try errorCode(missing) == "notFound")
        }
    }

    @Test func hubReadsKeepCrossOriginHeadersWhereConfigured() async throws {
        try await withServer(allowedOrigins: ["https://viewer.example"]) { client in
            let (_, slug) = try await projectWithExample(
                client, "laptop-benchmark-bar-chart.json", as: "chart", user: "ana", project: "Open",
                visibility: "public")
            let response = try await client.execute(
                uri: "/s/\(slug)/chart.json", method: .get, headers: [.origin: "https://viewer.example"])
            #expect(response.status == .ok)
            #expect(response.headers[.accessControlAllowOrigin] == "https://viewer.example")
            let widget = try await client.execute(
                uri: "/s/\(slug)/chart/widgets/1.svg", method: .get, headers: [.origin: "https://viewer.example"])
            #expect(widget.headers[.accessControlAllowOrigin] == "https://viewer.example")
        }
    }

    @Test func everyRequestIsCountedByRoute() async throws {
        let registry = PrometheusCollectorRegistry()
        ServerMetrics.bootstrap(registry)
        try await withServer(metrics: registry) { client in
            let (_, slug) = try await projectWithExample(
                client, "laptop-benchmark-bar-chart.json", as: "chart", user: "ana", project: "Counted",
                visibility: "public")
            for _ in 0..<3 { _ = try await client.execute(uri: "/s/\(slug)/chart.json", method: .get) }
            _ = try await client.execute(uri: "/s/\(slug)/nothing.json", method: .get)
            _ = try await client.execute(uri: "/s/\(slug)/chart/widgets/1.svg", method: .get)
            _ = try await client.execute(uri: "/nowhere", method: .get)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            // Tests running beside this one count into the same registry: at least what this one sent.
            func count(_ labels: String) -> Int {
                let prefix = "arvis_http_requests_total{\(labels)} "
                let line = text.split(separator: "\n").first { $0.hasPrefix(prefix) }
                return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
            }
            let route = #"route="/s/{project}/{name}.json",method="GET""#
            #expect(count(route + #",status="200""#) >= 3, "\(text)")
            #expect(count(route + #",status="404""#) >= 1)
            #expect(count(#"route="/s/{project}/{name}/widgets/{widget}",method="GET",status="200""#) >= 1)
            #expect(count(#"route="NotFound",method="GET",status="404""#) >= 1, "Hummingbird's name for no route")
        }
    }

    @Test func logLinesAreStreamLogHandlersWithoutItsCost() throws {
        let file = try scratch.folder().appendingPathComponent("log.txt")
        try #require(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        var logger = Logger(label: "arvis.serve") {
            ServerLogHandler(label: $0, output: LineWriter(descriptor: handle.fileDescriptor))
        }
        logger[metadataKey: "hb.request.id"] = "a1"
        logger[metadataKey: "b"] = "2"
        logger.info("GET /s/p/n.json 200")
        logger.debug("not written at info")
        logger.warning("careful", metadata: ["a": "1"])
        try handle.close()
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 2)
        let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} /#
        #expect(lines[0].prefixMatch(of: stamp) != nil, "\(lines[0])")
        #expect(
            lines[0].hasSuffix(" info arvis.serve: b=2 hb.request.id=a1 [ARVisServerTests] GET /s/p/n.json 200"))
        #expect(lines[1].hasSuffix(" warning arvis.serve: a=1 b=2 hb.request.id=a1 [ARVisServerTests] careful"))
    }

    @Test func linesFromManyThreadsStayWholeAndInOrder() async throws {
        let file = try scratch.folder().appendingPathComponent("threads.txt")
        try #require(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        let writer = LineWriter(descriptor: handle.fileDescriptor)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for line in 0..<2_000 {
                        writer.write("\(thread) \(line) " + String(repeating: "x", count: 40) + "\n")
                    }
                }
            }
        }
        try handle.close()
        var next = [Int](repeating: 0, count: 8)
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            try #require(parts.count == 3 && parts[2].count == 40, "a torn line: \(line)")
            let thread = try #require(Int(parts[0]))
            #expect(Int(parts[1]) == next[thread])
            next[thread] += 1
        }
        #expect(next == [Int](repeating: 2_000, count: 8))
    }
}
