import ARVisPipeline
import ARVisSpec
import ARVisSupport
import ARVisTestSupport
import Foundation
import Testing

/// A folder with a spec's neighbours, a secret outside it and links that try to escape.
struct FileSandbox: ~Copyable {
    let root: URL
    let folder: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("arvis-loader-\(UUID().uuidString)")
        folder = root.appendingPathComponent("specs")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("images/a.png"))
        try Data("TOP-SECRET-CONTENT".utf8).write(to: root.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("escape.png").path,
            withDestinationPath: root.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("passwd.png").path, withDestinationPath: "/etc/passwd")
    }

    var loader: SafeResourceLoader {
        SafeResourceLoader(policy: ResourcePolicy(fileRoot: folder.path), baseDirectory: folder.path)
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

func failure(_ work: () async throws(PipelineError) -> [UInt8]) async -> PipelineError? {
    do {
        _ = try await work()
        return nil
    } catch { return error }
}

struct SafeResourceLoaderFileTests {
    @Test func readsFilesInsideTheRoot() async throws {
        let sandbox = try FileSandbox()
        #expect(try await sandbox.loader.load("images/a.png") == [1, 2, 3])
        #expect(try await sandbox.loader.load("./images/../images/a.png") == [1, 2, 3])
        #expect(try await sandbox.loader.load("file://" + sandbox.folder.path + "/images/a.png") == [1, 2, 3])
    }

    @Test(arguments: [
        "../secret.txt", "images/../../secret.txt", "/etc/passwd", "file:///etc/passwd", "file:///proc/self/environ",
        "../../../../../../etc/passwd", "escape.png", "passwd.png", "file://localhost/etc/passwd", "%2e%2e/secret.txt",
    ])
    func refusesEverythingOutsideTheRoot(reference: String) async throws {
        let sandbox = try FileSandbox()
        let error = await failure { () throws(PipelineError) in try await sandbox.loader.load(reference) }
        #expect(error?.code == .refused || error?.code == .notFound, "\(reference): \(String(describing: error))")
        #expect(error?.message.contains("TOP-SECRET") != true)
    }

    @Test func refusesAllFilesWithoutARoot() async {
        let error = await failure { () throws(PipelineError) in try await SafeResourceLoader().load("images/a.png") }
        #expect(error?.code == .refused)
        #expect(error?.message.contains("--allow-files") == true)
    }

    @Test func refusesFoldersDevicesAndFilesOverTheLimit() async throws {
        let sandbox = try FileSandbox()
        #expect(
            await failure { () throws(PipelineError) in try await sandbox.loader.load("images") }?.code == .unreadable)
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.folder.appendingPathComponent("zero").path, withDestinationPath: "/dev/zero")
        var devices = SafeResourceLoader(policy: ResourcePolicy(fileRoot: "/"), baseDirectory: sandbox.folder.path)
        #expect(await failure { () throws(PipelineError) in try await devices.load("/dev/zero") }?.code == .unreadable)
        devices.policy.maximumBytes = 2
        #expect(
            await failure { () throws(PipelineError) in try await devices.load(sandbox.folder.path + "/images/a.png") }?
                .code == .tooLarge)
    }

    @Test func decodesDataURLs() async throws {
        let loader = SafeResourceLoader()
        #expect(try await loader.load("data:image/png;base64,AQID") == [1, 2, 3])
        #expect(try await loader.load("data:text/plain,a%20b") == Array("a b".utf8))
        #expect(
            await failure { () throws(PipelineError) in try await loader.load("data:image/png;base64") }?.code
                == .unreadable)
        #expect(
            await failure { () throws(PipelineError) in try await loader.load("ftp://example.org/a.png") }?.code
                == .refused)
    }
}

/// One at a time: a stalled or endless transfer slows FoundationNetworking's other transfers, which
/// would turn a test of one limit into a test of another's timing.
@Suite(.serialized)
struct SafeResourceLoaderNetworkTests {
    /// Loopback is allowed only for 127.0.0.1 itself, so redirects to other loopback addresses are refused.
    static let testPolicy = ResourcePolicy(timeout: .seconds(30), allowedNetworks: [IPNetwork("127.0.0.1/32")!])

    @Test(arguments: [
        "http://127.0.0.1:9/x.png", "http://localhost:9/x.png", "http://2130706433:9/x.png", "http://0x7f.1:9/x.png",
        "http://[::1]:9/x.png", "http://[::ffff:127.0.0.1]:9/x.png", "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/x", "http://192.168.1.1/x", "http://172.16.0.1/x", "http://100.64.0.1/x", "http://224.0.0.1/x",
        "http://0.0.0.0:9/x", "https://[fe80::1]/x", "http://user@127.0.0.1:9/x",
    ])
    func refusesNonPublicAddressesBeforeConnecting(url: String) async {
        let error = await failure { () throws(PipelineError) in try await SafeResourceLoader().load(url) }
        #expect(error?.code == .refused, "\(url): \(String(describing: error))")
    }

    @Test func fetchesFromAnAllowedAddressAndPinsIt() async throws {
        let server = try LoopbackHTTPServer { _ in .ok([7, 8, 9]) }
        defer { server.stop() }
        let loader = SafeResourceLoader(policy: Self.testPolicy)
        #expect(try await loader.load(server.url("/a.png")) == [7, 8, 9])
        // A name is fetched only when every address it resolves to is allowed (localhost may also be ::1).
        let named = "http://localhost:\(server.port)/b.png"
        var both = Self.testPolicy
        both.allowedNetworks.append(IPNetwork("::1/128")!)
        #expect(try await SafeResourceLoader(policy: both).load(named) == [7, 8, 9])
        // The connection went to the checked address; the name travelled in the Host header.
        #expect(server.requests.last?.path == "/b.png")
        #expect(server.requests.last?.host == "localhost:\(server.port)")
    }

    @Test func checksEveryRedirect() async throws {
        let inner = try LoopbackHTTPServer(address: "127.0.0.2") { _ in .ok(Array("internal".utf8)) }
        defer { inner.stop() }
        let outer = try LoopbackHTTPServer { path in
            switch path {
            case "/to-private": .redirect(inner.url("/admin"))
            case "/to-metadata": .redirect("http://169.254.169.254/latest/meta-data/", status: 301)
            case "/relative": .redirect("/final")
            case "/loop": .redirect("/loop")
            default: .ok([1])
            }
        }
        defer { outer.stop() }
        let loader = SafeResourceLoader(policy: Self.testPolicy)
        #expect(
            await failure { () throws(PipelineError) in try await loader.load(outer.url("/to-private")) }?.code
                == .refused)
        let metadata = await failure { () throws(PipelineError) in try await loader.load(outer.url("/to-metadata")) }
        #expect(metadata?.code == .refused, "\(String(describing: metadata))")
        #expect(inner.requests.isEmpty)
        #expect(try await loader.load(outer.url("/relative")) == [1])
        #expect(
            await failure { () throws(PipelineError) in try await loader.load(outer.url("/loop")) }?.code == .network)
    }

    @Test func capsBodiesWhileTheyStream() async throws {
        let server = try LoopbackHTTPServer { path in
            switch path {
            case "/endless": .endless
            case "/declared": .ok([UInt8](repeating: 0, count: 5_000))
            default: .ok([UInt8](repeating: 0, count: 5_000), contentLength: false)
            }
        }
        defer { server.stop() }
        var policy = Self.testPolicy
        policy.maximumBytes = 1_000
        let loader = SafeResourceLoader(policy: policy)
        for path in ["/endless", "/declared", "/undeclared"] {
            let error = await failure { () throws(PipelineError) in try await loader.load(server.url(path)) }
            #expect(error?.code == .tooLarge, "\(path): \(String(describing: error))")
        }
    }

    @Test func givesUpAtTheDeadlineAndReportsStatuses() async throws {
        let server = try LoopbackHTTPServer { path in
            path == "/slow" ? .stall(seconds: 60, body: [1]) : .status(path == "/missing" ? 404 : 500)
        }
        defer { server.stop() }
        var policy = Self.testPolicy
        policy.timeout = .seconds(1)
        let loader = SafeResourceLoader(policy: policy)
        let start = ContinuousClock.now
        #expect(
            await failure { () throws(PipelineError) in try await loader.load(server.url("/slow")) }?.code == .timedOut)
        // Far less than the minute the server stalls (generous: other tests share the two cores).
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(
            await failure { () throws(PipelineError) in try await loader.load(server.url("/missing")) }?.code
                == .notFound)
        #expect(
            await failure { () throws(PipelineError) in try await loader.load(server.url("/error")) }?.code
                == .httpStatus)
    }
}
