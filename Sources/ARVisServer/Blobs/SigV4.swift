import ARVisSupport
import Foundation

/// AWS Signature Version 4 for S3 requests, signed in the `Authorization` header: what every S3
/// engine (AWS, SeaweedFS, MinIO, Ceph) checks before it answers.
///
/// A request's canonical form — method, path, sorted query, the signed headers, the payload's
/// SHA-256 — is hashed into a string to sign, which an HMAC-SHA256 key derived from the secret, the
/// day, the region and the service signs.
/// ([Authenticating requests](https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html))
struct SigV4Signer: Sendable {
    /// An access key.
    struct Credentials: Sendable, Equatable {
        var accessKeyID: String
        var secretAccessKey: String
        /// A temporary credential's token, sent as `x-amz-security-token`.
        var sessionToken: String?

        /// The credentials every S3 tool reads: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
        /// optionally `AWS_SESSION_TOKEN`; `nil` when either key is missing or empty.
        static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
            -> Credentials?
        {
            guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
                let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
            else { return nil }
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }
    }

    /// A request as it is signed: the path already encoded as it is sent (`PercentEncoding.encoded(_:keepingSlashes:)`),
    /// the query unencoded.
    struct Request: Sendable {
        var method: String
        /// `host` or `host:port`, as the `Host` header carries it.
        var host: String
        var path: String
        var query: [(name: String, value: String)] = []
        /// Headers to sign besides `host` and the `x-amz-` ones this adds.
        var headers: [(name: String, value: String)] = []
        /// The hex SHA-256 of the body (``emptyPayloadHash`` for none).
        var payloadHash: String
    }

    /// The hex SHA-256 of no bytes.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    let credentials: Credentials
    let region: String
    var service = "s3"

    /// The headers to send with `request` at `date`: `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` with a session token, and `Authorization`.
    func headers(for request: Request, at date: Date) -> [(name: String, value: String)] {
        let (day, time) = Self.timestamps(date)
        var added: [(name: String, value: String)] = [
            (name: "x-amz-content-sha256", value: request.payloadHash), (name: "x-amz-date", value: time),
        ]
        if let token = credentials.sessionToken { added.append((name: "x-amz-security-token", value: token)) }
        let signed = Self.canonicalHeaders([(name: "host", value: request.host)] + request.headers + added)
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", time, scope, Digest.sha256Hex(Array(canonicalRequest(request, signed).utf8)),
        ].joined(separator: "\n")
        var key = Array("AWS4\(credentials.secretAccessKey)".utf8)
        for part in [day, region, service, "aws4_request"] {
            key = Digest.hmacSHA256(key: key, message: Array(part.utf8))
        }
        let signature = Digest.hex(Digest.hmacSHA256(key: key, message: Array(stringToSign.utf8)))
        let names = signed.map(\.name).joined(separator: ";")
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(names), Signature=\(signature)"
        return added + [(name: "Authorization", value: authorization)]
    }

    /// The canonical request: what is hashed into the string to sign.
    func canonicalRequest(_ request: Request, _ signed: [(name: String, value: String)]) -> String {
        [
            request.method, request.path, Self.canonicalQuery(request.query),
            signed.map { "\($0.name):\($0.value)\n" }.joined(), signed.map(\.name).joined(separator: ";"),
            request.payloadHash,
        ].joined(separator: "\n")
    }

    /// `query` encoded and sorted, as it is signed and sent: `a=1&b=`.
    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = query.map { pair in
            (name: PercentEncoding.encoded(pair.name), value: PercentEncoding.encoded(pair.value))
        }
        let sorted = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
    }

    /// Headers by lowercased name, sorted, values trimmed and inner runs of spaces made one.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.map { header -> (name: String, value: String) in
            let words = header.value.split(separator: " ", omittingEmptySubsequences: true)
            return (name: header.name.lowercased(), value: words.joined(separator: " "))
        }
        .sorted { $0.name < $1.name }
    }

    /// The day (`20130524`) and the time (`20130524T000000Z`) of `date`, in UTC.
    static func timestamps(_ date: Date) -> (day: String, time: String) {
        var seconds = time_t(Int(saturating: date.timeIntervalSince1970.rounded(.down)))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let day = String(
            format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        let time = day + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        return (day, time)
    }
}
