public import ARVisSpec

/// What a ``SafeResourceLoader`` may read: which local folder, which addresses, how much and how long.
///
/// The default reads no local file and only public internet addresses: what a server facing
/// strangers needs. The command line allows the spec's own folder.
///
/// ```swift
/// var policy = ResourcePolicy()
/// policy.fileRoot = "/srv/specs/museum"      // files under this folder, nowhere else
/// policy.maximumBytes = 5_000_000
/// ```
public struct ResourcePolicy: Sendable, Hashable {
    /// The folder local files must be inside (after symbolic links are resolved); `nil` allows no local file.
    public var fileRoot: String?
    /// The largest resource accepted, in bytes; larger ones are cut off while they stream in.
    public var maximumBytes: Int
    /// How long one resource may take, redirects included.
    public var timeout: Duration
    /// How many redirects are followed; each new address is checked like the first.
    public var maximumRedirects: Int
    /// Networks that may be fetched although they are not public (an operator's own image server);
    /// empty by default.
    public var allowedNetworks: [IPNetwork]
    /// How many resources are fetched at once.
    public var concurrency: Int

    /// Creates a policy; the defaults read no local files, only public addresses, up to 20 MB in 15 s.
    public init(
        fileRoot: String? = nil, maximumBytes: Int = 20_000_000, timeout: Duration = .seconds(15),
        maximumRedirects: Int = 5, allowedNetworks: [IPNetwork] = [], concurrency: Int = 6
    ) {
        self.fileRoot = fileRoot
        self.maximumBytes = maximumBytes
        self.timeout = timeout
        self.maximumRedirects = maximumRedirects
        self.allowedNetworks = allowedNetworks
        self.concurrency = concurrency
    }

    /// Whether the policy lets a connection go to `address`.
    public func allows(_ address: IPAddress) -> Bool {
        address.isPublic || allowedNetworks.contains { $0.contains(address) }
    }
}
