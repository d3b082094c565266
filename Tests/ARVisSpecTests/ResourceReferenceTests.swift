import ARVisSpec
import ARVisSupport
import Testing

struct IPAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f.0.0.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("10.1", "10.0.0.1"), ("0x7f000001", "127.0.0.1"), ("[::1]", "0:0:0:0:0:0:0:1"),
        ("::ffff:10.0.0.1", "0:0:0:0:0:ffff:a00:1"), ("fe80::1%eth0", "fe80:0:0:0:0:0:0:1"),
    ])
    func readsEveryResolverSpelling(text: String, expected: String) throws {
        #expect(try #require(IPAddress(text)).description == expected)
    }

    @Test(arguments: ["256.0.0.1", "1.2.3.4.5", "example.org", "", "1::2::3", "12345::", "1.2.3.-4"])
    func rejectsWhatIsNoAddress(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: [
        "127.0.0.1", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1",
        "0.0.0.0", "224.0.0.251", "255.255.255.255", "::", "::1", "fe80::1", "fd00::1", "ff02::1", "::ffff:127.0.0.1",
        "64:ff9b::10.0.0.1", "2002:7f00:1::", "198.18.0.1", "192.0.2.1",
    ])
    func privateAndSpecialAddressesAreNotPublic(text: String) throws {
        #expect(try #require(IPAddress(text)).isPublic == false)
    }

    @Test(arguments: ["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])
    func publicAddressesArePublic(text: String) throws {
        #expect(try #require(IPAddress(text)).isPublic)
    }

    @Test func networksContainTheirAddresses() throws {
        let network = try #require(IPNetwork("172.16.0.0/12"))
        #expect(network.contains(IPAddress("172.31.1.1")!))
        #expect(!network.contains(IPAddress("172.32.0.0")!))
        #expect(!network.contains(IPAddress("::1")!))
        #expect(IPNetwork("10.0.0.0/33") == nil)
    }
}

struct ResourceReferenceTests {
    @Test(arguments: [
        "/etc/passwd", "../secret.png", "a/../../b.png", "file:///etc/passwd", "file://localhost/etc/passwd",
        "~/x.png", "%2e%2e/x.png", "http://127.0.0.1/x.png", "http://localhost:8080/x", "http://[::1]/x",
        "http://169.254.169.254/", "https://user@10.0.0.1/x", "http://2130706433/",
    ])
    func refusesWhatNoSafeLoaderReads(url: String) {
        #expect(ResourceReference(url).refusal != nil)
    }

    @Test(arguments: [
        "images/a.png", "a/../b.png", "./a.png", "https://example.org/a.png", "data:image/png;base64,AA==",
        "http://images.example.org:8080/a.png",
    ])
    func acceptsOrdinaryReferences(url: String) {
        #expect(ResourceReference(url).refusal == nil)
    }

    @Test func readsHostsAndFilePaths() {
        #expect(
            ResourceReference("https://u:p@example.org:443/a?b#c")
                == .web(url: "https://u:p@example.org:443/a?b#c", host: "example.org"))
        #expect(ResourceReference("file:///tmp/a%20b.png") == .file(path: "/tmp/a b.png"))
        #expect(ResourceReference("ftp://x/y") == .unsupported(scheme: "ftp"))
    }
}

struct SaturatingConversionTests {
    static let limit = 1 << 62
    static let cases: [(Double, Int)] = [
        (.nan, 0), (.infinity, limit), (-.infinity, -limit), (1e308, limit), (-1e308, -limit), (2.9, 2), (-2.9, -2),
        (0, 0),
    ]

    @Test(arguments: cases)
    func neverTraps(value: Double, expected: Int) {
        #expect(Int(saturating: value) == expected)
    }
}
