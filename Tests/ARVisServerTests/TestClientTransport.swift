import ARVisClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime

/// Carries the generated ``ARVisClient`` over HummingbirdTesting's client, so server tests speak to
/// the server in process the way apps and the CLI speak to it over the network.
struct TestClientTransport: ClientTransport {
    let client: any TestClientProtocol

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var bytes: [UInt8] = []
        if let body { bytes = try await [UInt8](collecting: body, upTo: 1 << 30) }
        let answer = try await client.execute(
            uri: request.path ?? "/", method: request.method, headers: request.headerFields,
            body: bytes.isEmpty ? nil : ByteBuffer(bytes: bytes))
        var response = HTTPResponse(status: answer.status)
        response.headerFields = answer.headers
        return (response, HTTPBody(Array(answer.body.readableBytesView)))
    }
}

extension ServerTesting {
    /// The generated client of the server under test, sending `token` when given.
    func apiClient(_ client: any TestClientProtocol, token: String? = nil) -> Client {
        ARVisClient.make(
            server: URL(string: "http://arvis.test")!, token: token, transport: TestClientTransport(client: client))
    }
}
