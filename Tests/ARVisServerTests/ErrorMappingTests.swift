import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisRender
import ARVisSpatial
import ARVisSpec
import ARVisStore
import ARVisSupport
import ARVisTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import ARVisServer

/// The one table from the modules' errors to answers: the client's input is a `4xx` with a stable
/// code, the server's own faults stay errors (a logged `500`).
struct ErrorMappingTests {
    @Test func everyModuleErrorHasOneAnswer() {
        let cases: [(any Error, HTTPResponse.Status, APIError.Code)] = [
            (StoreError(.notFound, "no such spec"), .notFound, .notFound),
            (StoreError(.conflict, "taken"), .conflict, .conflict),
            (StoreError(.preconditionFailed, "changed"), .preconditionFailed, .preconditionFailed),
            (StoreError(.invalid, "too long"), .unprocessableContent, .invalid),
            (SpecError(code: .syntax, message: "expected a value"), .unprocessableContent, .invalidSpec),
            (
                RenderError(.limitExceeded, "it would draw too much", location: "image1-widget1"),
                .unprocessableContent, .renderFailed
            ),
            (GraphicsError(.canvasTooLarge, "too many pixels"), .unprocessableContent, .renderFailed),
            (GraphicsError(.qrDataTooLong, "does not fit"), .unprocessableContent, .qrFailed),
            (ExportError(.notFinite, "a NaN pose"), .unprocessableContent, .exportFailed),
            (ModelError(.tooLarge, "too many triangles"), .unprocessableContent, .exportFailed),
            (PlantingError(.tooManyTrees, "over the limit"), .unprocessableContent, .cannotPlan),
            (SpatialError(.insufficientData, "two points"), .unprocessableContent, .invalidSpatialInput),
            (PipelineError(.limitExceeded, "too many marks"), .unprocessableContent, .invalid),
        ]
        for (error, status, code) in cases {
            let answer = APIError(error)
            #expect(answer?.status == status && answer?.code == code, "\(error)")
        }
        let location = RenderError(.limitExceeded, "it would draw too much", location: "image1-widget1")
        #expect(
            APIError(location)?.message == "image1-widget1: it would draw too much", "the location leads the message")
    }

    @Test func aDatabaseOrFileStoreThatCannotBeReachedIsA503() {
        let database = APIError(StoreError(.unavailable, "the database does not answer"))
        #expect(database?.status == .serviceUnavailable && database?.headerFields[.retryAfter] == "5")
        let files = APIError(BlobStoreError(.unavailable, "connection refused"))
        #expect(files?.status == .serviceUnavailable && files?.code == .storageUnavailable)
    }

    @Test func theServersOwnFaultsStayErrors() {
        #expect(APIError(BlobStoreError(.failed, "SignatureDoesNotMatch")) == nil)
        #expect(APIError(GraphicsError(.fontMissing, "no fonts")) == nil)
        #expect(APIError(PipelineError(.network, "no such host")) == nil)
        #expect(APIError(CancellationError()) == nil)
    }
}

/// The error codes are one list in three places that must agree: the static members of
/// ``APIError/Code``, its `all`, and `openapi.yaml`'s `ErrorCode`, which clients are generated from.
struct ErrorCodeListTests {
    @Test func theCodesOfTheServerAndOfTheContractAreTheSame() throws {
        let served = APIError.Code.all.map(\.name)
        #expect(served == served.sorted() && Set(served).count == served.count, "all is sorted, each code once")

        let source = try String(
            contentsOf: Corpus.packageRoot.appendingPathComponent("Sources/ARVisServer/HTTP/APIErrorCode.swift"),
            encoding: .utf8)
        let members = source.matches(of: /static let `?(\w+)`? = Self\("(\w+)"\)/).map { (String($0.1), String($0.2)) }
        #expect(members.allSatisfy { $0.0 == $0.1 }, "each member is named as its code")
        #expect(members.map(\.0).sorted() == served, "all lists every static member")

        let contract = try String(
            contentsOf: Corpus.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let listed = try #require(
            contract.firstMatch(of: /\n    ErrorCode:\n(?:      .*\n)*?      enum:\n((?:        - \w+\n)+)/))
        let documented = listed.1.split(separator: "\n").map { String($0.dropFirst("        - ".count)) }
        #expect(documented == served, "openapi.yaml's ErrorCode lists the server's codes, sorted")
    }
}
