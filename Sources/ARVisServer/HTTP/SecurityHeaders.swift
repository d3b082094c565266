import HTTPTypes

/// The headers that keep browsers from misreading what the server makes: no MIME sniffing on every
/// made file, and for pages a Content-Security-Policy and no referrer (a spec's URL is not leaked).
///
/// Added where responses are built, not by a middleware rewriting every response afterwards: that
/// cost the cached hub GET about a tenth of its throughput (BENCHMARKS.md).
enum SecurityHeaders {
    /// `Referrer-Policy`, which HTTPTypes does not name.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")

    /// Appends the headers to `headers`; `policy` is a page's Content-Security-Policy.
    static func append(to headers: inout HTTPFields, policy: String? = nil) {
        headers.append(HTTPField(name: .xContentTypeOptions, value: "nosniff"))
        guard let policy else { return }
        headers.append(HTTPField(name: .contentSecurityPolicy, value: policy))
        if let referrerPolicy { headers.append(HTTPField(name: referrerPolicy, value: "no-referrer")) }
    }
}
