import ArgumentParser
import Dispatch
import Foundation

/// `arvis-bench studio`: the server's side of ARVis Studio's editor for a 180 KB spec — the quick
/// read it asks for after every pause in typing (diagnostics), and the drawings after an edit
/// without errors — against `arvis serve` in a child process, over HTTP as the browser asks.
struct StudioBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract:
            "Time POST /api/v1/preview for a 180 KB spec: diagnostics only (every pause in typing; the editor's budget is 300 ms from the last key) and with drawings."
    )

    @Option(help: "Requests timed of each kind.")
    var count = 30

    @Option(help: "The spec's size in bytes.")
    var bytes = 180_000

    func validate() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count is 1 to 10 000") }
        guard (1_000...100_000_000).contains(bytes) else { throw ValidationError("--bytes is 1 000 to 100 000 000") }
    }

    func run() async throws {
        let binary = try ServerProcess.arvisBinary()
        let server = try await ServerProcess.start(binary: binary, database: nil)
        defer { server.stop() }
        let token = try await ServeBench.prepare(server.base)
        let valid = Self.spec(bytes: bytes)
        // One key in one key: the edit a typo makes (an unknown key, with its did-you-mean).
        let typo = valid.replacingOccurrences(
            of: "physicalWidth", with: "physxicalWidth", options: [], range: valid.range(of: "physicalWidth"))
        var checks: [Double] = []
        var draws: [Double] = []
        for index in 0..<(count + 3) {
            let text = index % 2 == 0 ? typo : valid
            let check = try await Self.time {
                _ = try await ServeBench.send(
                    "POST", server.base + "/api/v1/preview?draw=false", body: Data(text.utf8), token: token,
                    type: "application/json")
            }
            // A different valid text each time, so nothing is drawn from the cache.
            let edited = valid.replacingOccurrences(
                of: "told in a few words", with: "told in \(index) words", options: [],
                range: valid.range(of: "told in a few words"))
            let draw = try await Self.time {
                _ = try await ServeBench.send(
                    "POST", server.base + "/api/v1/preview", body: Data(edited.utf8), token: token,
                    type: "application/json")
            }
            if index >= 3 {
                checks.append(check)
                draws.append(draw)
            }
        }
        let median = { (samples: [Double]) in samples.sorted()[samples.count / 2] * 1000 }
        print(
            String(
                format:
                    "a %d KB spec: diagnostics in %.1f ms, diagnostics and drawings of its widgets in %.1f ms (medians of %d; budget: 300 ms from the last key, 120 ms of it the editor's pause)",
                valid.utf8.count / 1000, median(checks), median(draws), count))
        print(String(format: "RESULT studio_check_180kb %.1f ms", median(checks)))
        print(String(format: "RESULT studio_draw_180kb %.1f ms", median(draws)))
    }

    private static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// An environment of about `bytes` bytes: image targets, each with a text and a divider (the
    /// spec Scripts/check_studio.py types into).
    static func spec(bytes: Int) -> String {
        var targets: [String] = []
        var length = 0
        var index = 0
        while length < bytes {
            index += 1
            let target = """
                    {
                      "imageURL": "https://example.org/targets/poster-\(index).jpg",
                      "physicalWidth": 0.3,
                      "relationships": [
                        {
                          "widgetConfiguration": {
                            "component": {
                              "vStack": {
                                "elements": [
                                  {"text": {"content": "**Poster \(index)** and its story, told in a few words."}},
                                  {"divider": {"opacity": 0.3}}
                                ]
                              }
                            },
                            "relativeAnchorPoint": "top",
                            "relativePosition": [0, 0, 0]
                          }
                        }
                      ]
                    }
                """
            length += target.utf8.count + 2
            targets.append(target)
        }
        return "{\n  \"imageTrackingConfigurations\": [\n" + targets.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
