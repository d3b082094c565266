import ARVisGraphics
import ARVisPipeline
import ARVisSpec
import ARVisSupport
public import ArgumentParser
import Foundation

/// `arvis qr`: a QR Code of a URL (or any text), as SVG or PNG.
struct QRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Write a QR Code of a URL or any text, as SVG or PNG.",
        discussion: """
            A phone's camera opens the URL. With --iarvis the code holds the deep link iARVis \
            registered, iARVis://openVisConfig?url=<the URL, percent-encoded>, which opens the spec in \
            the app. The smallest version that holds the text is used (--min-version raises it), at
            --level M unless told, raised for free when the text still fits. The format comes from
            --format, else from the -o extension; without -o, SVG goes to standard output.

            Examples:
              arvis qr https://arvis.example/s/museum/ensor.json -o ensor.svg
              arvis qr https://arvis.example/s/museum/ensor.json --iarvis -o ensor-app.png
              arvis qr "https://example.org/a" --level H --module-size 12 -o poster.png
            """
    )

    /// The pipeline's QR Code formats, named on the command line.
    typealias Format = CodeFormat

    enum Level: String, ExpressibleByArgument, CaseIterable {
        case low = "L"
        case medium = "M"
        case quartile = "Q"
        case high = "H"

        var errorCorrection: QRCode.ErrorCorrection {
            switch self {
            case .low: .low
            case .medium: .medium
            case .quartile: .quartile
            case .high: .high
            }
        }
    }

    @Argument(help: "The URL or text to encode (UTF-8, up to 2 953 bytes at level L).")
    var text: String

    @Option(name: .shortAndLong, help: "The file to write (.svg or .png).")
    var output: String?

    @Option(help: "svg or png (default: from the -o extension, else svg).")
    var format: Format?

    @Option(help: "Error correction: L (7 %), M (15 %), Q (25 %) or H (30 %).")
    var level: Level = .medium

    @Option(help: "Pixels (PNG) or points (SVG) per module, 1 to 100.")
    var moduleSize: Double = 8

    @Option(help: "The smallest version to use, 1 to 40 (a version-N code is 17 + 4N modules wide).")
    var minVersion = 1

    @Flag(help: "Encode iARVis's deep link to the URL instead of the URL itself.")
    var iarvis = false

    @OptionGroup var reporting: ReportingOptions

    func validate() throws {
        guard moduleSize >= 1, moduleSize <= 100 else {
            throw ValidationError("--module-size must be between 1 and 100")
        }
        guard (1...40).contains(minVersion) else { throw ValidationError("--min-version must be between 1 and 40") }
        if iarvis, !(text.lowercased().hasPrefix("https://") || text.lowercased().hasPrefix("http://")) {
            throw ValidationError("--iarvis needs an http or https URL of a spec, not '\(text)'")
        }
        if format == nil, let output, output != "-", resolvedFormat == nil {
            throw ValidationError("cannot tell the format of '\(output)': use .svg or .png, or --format svg|png")
        }
    }

    private var resolvedFormat: Format? {
        if let format { return format }
        guard let output, output != "-" else { return .svg }
        return Format(path: output)
    }

    func run() throws {
        let content = iarvis ? IARVisLink.openVisConfig(text) : text
        let code = try QRCode(encoding: content, errorCorrection: level.errorCorrection, minimumVersion: minVersion)
        let what = "version \(code.version)-\(code.errorCorrection), \(code.size)×\(code.size) modules"
        let format = resolvedFormat ?? .svg
        guard format == .svg || (output != nil && output != "-") else {
            throw ValidationError("PNG needs -o FILE (a terminal cannot show it)")
        }
        let encoded = try code.encode(as: format, moduleSize: moduleSize, fonts: { try FontLibrary.standard() })
        guard let output, output != "-" else { return try Console.write(Data(encoded.bytes)) }
        try reporting.save(Data(encoded.bytes), to: output, what: format == .png ? "\(what), PNG" : what)
    }
}

extension CodeFormat: ExpressibleByArgument {}
