import ArgumentParser
import Foundation

/// The Python half of a comparison benchmark: runs a script and reads its `RESULT name value unit` lines.
struct PythonSide {
    /// The script's standard output.
    let output: String
    /// Its RESULT figures by name.
    let figures: [String: Double]

    /// Runs `python script arguments…`; `install` says what to install when the script fails.
    init(python: String, script: String, arguments: [String], install: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("\(script) failed (\(install))\n\(output)") }
        var figures: [String: Double] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("RESULT ") {
            let parts = line.split(separator: " ")
            if parts.count >= 3, let value = Double(parts[2]) { figures[String(parts[1])] = value }
        }
        self.figures = figures
    }

    /// A figure the script must have printed.
    func figure(_ name: String) throws -> Double {
        guard let value = figures[name] else {
            throw ValidationError("the Python side printed no RESULT \(name)\n\(output)")
        }
        return value
    }
}
