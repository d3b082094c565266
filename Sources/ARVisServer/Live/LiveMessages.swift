import ARVisStore
import Foundation

/// The JSON text messages of the live streams (WebSocket text frames, and the `data:` of
/// Server-Sent Events), each made once and sent to every subscriber.
///
/// Spec stream (`/live/{project}/{spec}`):
/// - `{"type":"spec","name","version","etag","changed":[ids],"removed":[ids],"spec":{…}}` — on connect
///   (unless the client holds the current version) and on every saved version; `changed` lists the widgets whose component or placement differs
///   from the version the client holds (every widget when it holds none).
/// - `{"type":"rows","dataset","widgets":[ids],"reset","rows":[{"seq","at","values":{…}}]}` — rows of a
///   dataset a widget follows; `reset: true` replaces what the device holds (the window on connect).
/// - `{"type":"deleted","name"}` — the spec was deleted.
///
/// Room stream (`/live/{project}/rooms/{room}`) besides binary pose packets:
/// - `{"type":"welcome","room","role","seq","annotations":[…] or null}` — first; `annotations` is null
///   for a member resuming with `since` (the events it missed follow). Annotation, tree and anchor
///   messages are idempotent by `id`: a member may see one both in `welcome` and as an event.
/// - `{"type":"annotation","seq","annotation":{…}}`, `{"type":"tree","seq","tree":{…}}`,
///   `{"type":"anchor","seq","anchor":{…}}`, and `annotationDeleted`, `treeRemoved`, `anchorDeleted`
///   with the `id`.
/// - `{"type":"refused","clientId","code","message"}` — a change the server would not make (a tree too
///   close to another, a tap on a frame it no longer holds), sent to its sender only.
enum LiveMessages {
    static func spec(name: String, version: SpecVersion, changed: [String], removed: [String], specJSON: String)
        -> String
    {
        "{\"type\":\"spec\",\"name\":\(quoted(name)),\"version\":\(version.version),\"etag\":\(quoted(version.etag)),"
            + "\"changed\":\(list(changed)),\"removed\":\(list(removed)),\"spec\":\(specJSON)}"
    }

    static func deleted(name: String) -> String {
        "{\"type\":\"deleted\",\"name\":\(quoted(name))}"
    }

    static func rows(dataset: String, widgets: [String], rows: [DatasetRow], reset: Bool) -> String {
        let items = rows.map(row)
        return
            "{\"type\":\"rows\",\"dataset\":\(quoted(dataset)),\"widgets\":\(list(widgets)),\"reset\":\(reset),\"rows\":[\(items.joined(separator: ","))]}"
    }

    /// `annotations`: the room's, for a member joining afresh; `nil` for one resuming (the events it
    /// missed follow, and it keeps what it holds).
    /// One dataset row: `{"seq", "at", "values"}`.
    static func row(_ row: DatasetRow) -> String {
        "{\"seq\":\(row.sequence),\"at\":\(quoted(timestamp(row.createdAt))),\"values\":\(row.json)}"
    }

    static func welcome(room: String, role: String, sequence: Int64, annotations: [Annotation]?) -> String {
        let list = annotations.map { "[" + $0.map(annotationObject).joined(separator: ",") + "]" } ?? "null"
        return
            "{\"type\":\"welcome\",\"room\":\(quoted(room)),\"role\":\(quoted(role)),\"seq\":\(sequence),\"annotations\":\(list)}"
    }

    static func annotation(_ annotation: Annotation, sequence: Int64) -> String {
        "{\"type\":\"annotation\",\"seq\":\(sequence),\"annotation\":\(annotationObject(annotation))}"
    }

    static func tree(_ tree: Tree, sequence: Int64) -> String {
        "{\"type\":\"tree\",\"seq\":\(sequence),\"tree\":\(encoded(ARVisAPI.schema(tree)))}"
    }

    static func anchor(_ anchor: Anchor, sequence: Int64) -> String {
        "{\"type\":\"anchor\",\"seq\":\(sequence),\"anchor\":\(encoded(ARVisAPI.schema(anchor)))}"
    }

    /// `annotationDeleted`, `treeRemoved` or `anchorDeleted`.
    static func removal(_ type: String, id: String, sequence: Int64) -> String {
        "{\"type\":\(quoted(type)),\"seq\":\(sequence),\"id\":\(quoted(id))}"
    }

    static func refused(clientID: String?, code: String, message: String) -> String {
        "{\"type\":\"refused\",\"clientId\":\(clientID.map(quoted) ?? "null"),\"code\":\(quoted(code)),\"message\":\(quoted(message))}"
    }

    static func annotationObject(_ annotation: Annotation) -> String {
        encoded(ARVisAPI.schema(annotation))
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String { SpecRoutes.jsonString(text) }

    private static func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ",") + "]" }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }
}
