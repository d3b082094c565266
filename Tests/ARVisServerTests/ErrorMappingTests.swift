import ARVisGraphics
import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisRender
import ARVisSpatial
import ARVisSpec
import ARVisStore
import ARVisSupport
import HTTPTypes
import Testing

@testable import ARVisServer

/// The one table from the modules' errors to answers: the client's input is a `4xx` with a stable
/// code, the server's own faults stay errors (a logged `500`).
struct ErrorMappingTests {
    @Test func everyModuleErrorHasOneAnswer() {
        let cases: [(any Error, HTTPResponse.Status, String)] = [
            (StoreError(.notFound, "no such spec"), .notFound, "notFound"),
            (StoreError(.conflict, "taken"), .conflict, "conflict"),
            (StoreError(.preconditionFailed, "changed"), .preconditionFailed, "preconditionFailed"),
            (StoreError(.invalid, "too long"), .unprocessableContent, "invalid"),
            (SpecError(code: .syntax, message: "expected a value"), .unprocessableContent, "invalidSpec"),
            (
                RenderError(.limitExceeded, "it would draw too much", location: "image1-widget1"),
                .unprocessableContent, "renderFailed"
            ),
            (GraphicsError(.canvasTooLarge, "too many pixels"), .unprocessableContent, "renderFailed"),
            (GraphicsError(.qrDataTooLong, "does not fit"), .unprocessableContent, "qrFailed"),
            (ExportError(.notFinite, "a NaN pose"), .unprocessableContent, "exportFailed"),
            (ModelError(.tooLarge, "too many triangles"), .unprocessableContent, "exportFailed"),
            (PlantingError(.tooManyTrees, "over the limit"), .unprocessableContent, "cannotPlan"),
            (SpatialError(.insufficientData, "two points"), .unprocessableContent, "invalidSpatialInput"),
            (PipelineError(.limitExceeded, "too many marks"), .unprocessableContent, "invalid"),
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
        #expect(files?.status == .serviceUnavailable && files?.code == "storageUnavailable")
    }

    @Test func theServersOwnFaultsStayErrors() {
        #expect(APIError(BlobStoreError(.failed, "SignatureDoesNotMatch")) == nil)
        #expect(APIError(GraphicsError(.fontMissing, "no fonts")) == nil)
        #expect(APIError(PipelineError(.network, "no such host")) == nil)
        #expect(APIError(CancellationError()) == nil)
    }
}
