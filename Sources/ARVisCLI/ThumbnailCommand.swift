import ARVisModel
import ARVisPipeline
import ARVisSupport
import ArgumentParser
import Foundation

/// `arvis thumbnail`: a picture of a 3D model, drawn without a GPU.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Draw a 3D model to a square PNG, framed on its bounding sphere.",
        discussion: """
            The camera looks at the model from the front, 30° to the right and 20° above, with a 30° \
            field of view, far enough back that the whole bounding sphere fits. Surfaces are shaded \
            with their base colour textures, metalness and roughness under a key and a fill light; \
            edges are 4× supersampled. The background is transparent unless --background gives a \
            colour.

            Examples:
              arvis thumbnail chair.glb -o chair.png
              arvis thumbnail scan.usdz --size 1024 --background '#ffffff' -o scan.png
            """)

    @Option(help: "Width and height in pixels (16 to 4096).")
    var size = 512

    @Option(help: "The background colour as #rrggbb, or 'transparent' (the default).")
    var background = "transparent"

    @OptionGroup var input: ModelInput

    @OptionGroup var reporting: ReportingOptions

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output: String

    func validate() throws {
        guard (16...ThumbnailRenderer.maximumSize).contains(size) else {
            throw ValidationError("--size must be between 16 and \(ThumbnailRenderer.maximumSize)")
        }
        _ = try parsedBackground()
    }

    private func parsedBackground() throws -> SIMD4<Float> {
        if background == "transparent" { return .zero }
        let hex = background.hasPrefix("#") ? String(background.dropFirst()) : background
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else {
            throw ValidationError("--background is #rrggbb or transparent; got \(background)")
        }
        return SIMD4(Float(value >> 16 & 0xFF) / 255, Float(value >> 8 & 0xFF) / 255, Float(value & 0xFF) / 255, 1)
    }

    func run() throws {
        let model = try input.read()
        let png = try ThumbnailRenderer(size: size, background: try parsedBackground()).png(of: model)
        try reporting.save(Data(png), to: output, what: "\(size)×\(size) thumbnail")
    }
}
