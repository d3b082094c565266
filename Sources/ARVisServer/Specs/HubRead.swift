/// The hub's busiest reads, which ``ServerResponder`` answers without the router: the spec as
/// iARVis loads it, and a widget's file, as phones fetch them.
enum HubRead: Sendable, Equatable {
    /// `/s/{project}/{name}.json`.
    case specFile(project: String, name: String)
    /// `/s/{project}/{name}/widgets/{widget}`, `widget` being the file (`1.png`, `image1-widget2.svg`).
    case widget(project: String, name: String, file: String)

    /// The route of a spec as iARVis loads it, as the router and the metrics name it.
    static let specFileRoute = "/s/{project}/{name}.json"
    /// The route of a widget's file.
    static let widgetRoute = "/s/{project}/{name}/widgets/{widget}"

    /// The route of this read, as the router and the metrics name it.
    var route: String {
        switch self {
        case .specFile: Self.specFileRoute
        case .widget: Self.widgetRoute
        }
    }

    /// The read `path` names, taken apart as the router takes it (components between slashes, raw,
    /// none empty); `nil` for any other path.
    init?(path: String) {
        var path = path
        guard let read = path.withUTF8(Self.read) else { return nil }
        self = read
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> HubRead? {
        let slash = UInt8(ascii: "/")
        guard bytes.count > 4, bytes[0] == slash, bytes[1] == UInt8(ascii: "s"), bytes[2] == slash else { return nil }
        // The slashes after `/s`: two for a spec file, four for a widget.
        var slashes = [2]
        for index in 3..<bytes.count where bytes[index] == slash {
            guard slashes.count < 5 else { return nil }
            slashes.append(index)
        }
        slashes.append(bytes.count)
        let parts = (1..<slashes.count).map { slashes[$0 - 1] + 1..<slashes[$0] }
        guard parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        switch parts.count {
        case 2:
            let json = ".json".utf8
            guard parts[1].count > json.count,
                bytes[(parts[1].upperBound - json.count)..<parts[1].upperBound].elementsEqual(json)
            else { return nil }
            return .specFile(project: text(parts[0]), name: text(parts[1].dropLast(json.count)))
        case 4:
            guard bytes[parts[2]].elementsEqual("widgets".utf8) else { return nil }
            return .widget(project: text(parts[0]), name: text(parts[1]), file: text(parts[3]))
        default:
            return nil
        }
    }
}
