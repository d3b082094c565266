import ARVisModel
import ARVisPipeline
import ARVisSupport
import ArgumentParser
import Foundation

/// `arvis inspect`: what a 3D model holds and whether it fits AR Quick Look's budget.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a 3D model's triangles, vertices, bounds, materials and textures, with AR budget warnings.",
        discussion: """
            Reads GLB, glTF, USDZ, USDC and USDA. Bounds are in metres with +Y up (the file's units and \
            up axis applied). A warning is printed for each AR Quick Look budget passed: more than \
            100 000 triangles, or a texture larger than 2048 × 2048. Exit 0 when the model was read, \
            1 when it is damaged, 2 when it cannot be read.

            Examples:
              arvis inspect chair.glb
              arvis inspect --format json scan.usdz
            """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "text (default) or json.")
    var format: OutputFormat = .text

    @OptionGroup var input: ModelInput

    func run() throws {
        let report = ModelInspection(try input.read())
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try Console.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        case .text:
            try Console.write(Self.text(report) + "\n")
        }
    }

    static func text(_ report: ModelInspection) -> String {
        func number(_ value: Double) -> String { String(format: "%.4g", value) }
        var lines = [
            "triangles  \(report.triangles)", "vertices   \(report.vertices)",
            "meshes     \(report.meshes) in \(report.nodes) nodes",
        ]
        if let bounds = report.bounds {
            lines.append(
                "bounds     \(bounds.size.map(number).joined(separator: " × ")) m, from (\(bounds.min.map(number).joined(separator: ", "))) to (\(bounds.max.map(number).joined(separator: ", ")))"
            )
        }
        lines.append("units      \(number(report.metersPerUnit)) m per unit, \(report.upAxis.rawValue) up")
        lines.append("materials  \(report.materials.count)")
        for (index, material) in report.materials.enumerated() {
            let maps = material.textures.sorted { $0.key < $1.key }.map { "\($0.key) → texture \($0.value)" }
            lines.append(
                "  \(index) \(material.name.isEmpty ? "(unnamed)" : material.name): metallic \(number(Double(material.metallic))), roughness \(number(Double(material.roughness))), \(material.alphaMode.rawValue.lowercased())"
                    + (maps.isEmpty ? "" : "; " + maps.joined(separator: ", ")))
        }
        lines.append("textures   \(report.textures.count)")
        for (index, texture) in report.textures.enumerated() {
            let size = texture.width.map { "\($0)×\(texture.height ?? 0)" } ?? "unreadable"
            lines.append(
                "  \(index) \(texture.name.isEmpty ? "(unnamed)" : texture.name): \(texture.format.rawValue) \(size), \(texture.bytes) bytes"
            )
        }
        lines += report.warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }
}
