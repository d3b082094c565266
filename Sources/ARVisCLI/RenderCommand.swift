import ARVisGraphics
import ARVisPipeline
import ARVisRender
import ARVisSpec
import ARVisSupport
public import ArgumentParser
import Foundation

/// `arvis render`: draws widgets, components and charts as SVG, PNG or interactive HTML.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a spec's widgets as SVG, PNG or interactive HTML, as an iPhone shows them.",
        discussion: """
            A component or chart renders to one file. An environment renders every widget: -o names a folder \
            that receives one file per widget (image1-widget1.svg, …) and an index.html gallery; with --widget \
            N only the N-th widget is drawn, to a file. An -o that ends in / or is an existing folder always \
            receives files and a gallery.

            The format comes from --format, else from the -o extension, else SVG. SVG and HTML go to standard \
            output when -o is left out. Images are neutral placeholders with their file name unless --fetch \
            loads them: SVG and HTML embed them as data URIs, PNG draws PNG and JPEG pictures (others keep the \
            placeholder, with a warning). --fetch reads web URLs from public internet addresses only, and \
            local files only inside the spec's folder (or the --allow-files folder).

            Text is set in Inter where Debian's fonts-inter is installed (the face nearest to iOS's SF Pro and \
            SF Rounded), else in DejaVu Sans; DejaVu Sans Mono and Serif for monospaced and serif text. Emoji \
            are drawn in colour from Noto Color Emoji (fonts-noto-color-emoji) when installed. DejaVu is read \
            from /usr/share/fonts/truetype/dejavu or --font-dir (or ARVIS_FONT_DIR).

            Examples:
              arvis render Examples/laptop-benchmark-bar-chart.json -o chart.svg
              arvis render Examples/two-targets-environment.json --format png --scale 2 -o out/
              arvis render museum.json --widget 2 --format html --fetch -o widget.html
            """
    )

    /// The pipeline's widget formats, named on the command line.
    typealias OutputFormat = WidgetFormat

    @OptionGroup var reading: ReadingOptions

    @Option(help: "Draw only this widget of an environment (1 is the first).")
    var widget: Int?

    @Option(help: "Output format: svg, png or html (default: from the -o extension, else svg).")
    var format: OutputFormat?

    @Option(help: "Pixels per point for PNG output, from 0.25 to 8 (1, 2 and 3 match iPhone screens).")
    var scale = 1.0

    @OptionGroup var fetching: FetchOptions

    @OptionGroup var limiting: LimitOptions

    @OptionGroup var reporting: ReportingOptions

    @Flag(
        name: .customLong("full-height"),
        help: "Draw all of a scrolling widget's content instead of clipping it at the frame.")
    var fullHeight = false

    @Option(
        name: .customLong("font-dir"),
        help: "The folder holding the DejaVu .ttf files (and, optionally, Inter's .otf files).")
    var fontDirectory: String?

    @Option(
        name: .shortAndLong, help: "The output file, or a folder for an environment's widgets (- is standard output).")
    var output: String?

    @Argument(help: "The spec file (JSON or YAML; - reads standard input).")
    var file: String

    func validate() throws {
        guard scale >= 0.25, scale <= 8 else { throw ValidationError("--scale must be between 0.25 and 8") }
        if let output, format == nil, !outputIsFolder, !OutputFormat.fileExtension(of: output).isEmpty,
            OutputFormat(path: output) == nil
        {
            throw ValidationError(
                "-o \(output): render writes .svg, .png or .html files (or a folder); give one of those or --format")
        }
        if let widget, widget < 1 { throw ValidationError("--widget counts from 1") }
    }

    private var resolvedFormat: OutputFormat {
        format ?? output.flatMap { OutputFormat(path: $0) } ?? .svg
    }

    func run() async throws {
        let document = try SpecInput.document(at: file, options: reading)
        var options = RenderOptions(fullHeight: fullHeight)
        options.limits = limiting.limits
        options.resources = await fetching.resources(Renderer.resourceURLs(in: document), for: file)
        let renderer = try Renderer(options: options, fonts: FontLibrary.standard(directory: fontDirectory))
        var widgets = try renderer.render(document)
        if let widget {
            guard widget <= widgets.count else {
                throw CommandFailure.usage(
                    "--widget \(widget) is out of range: \(file) has \(widgets.count) widget\(widgets.count == 1 ? "" : "s")"
                )
            }
            widgets = [widgets[widget - 1]]
        }
        guard !widgets.isEmpty else {
            throw CommandFailure.input("\(file) has no widgets to render")
        }
        if outputIsFolder || (document.kind == .environment && self.widget == nil && !outputIsFile) {
            try writeFolder(widgets, fonts: renderer.fonts)
        } else {
            guard widgets.count == 1 else {
                throw CommandFailure.usage(
                    "\(file) has \(widgets.count) widgets and \(output ?? "-") names one file: give --widget N (1–\(widgets.count)) for one of them, or -o FOLDER/ for all"
                )
            }
            try write(widgets[0], to: output, fonts: renderer.fonts)
        }
    }

    /// Whether `-o` names a file (a name with an extension render writes), not a folder.
    private var outputIsFile: Bool {
        guard let output, output != "-" else { return true }
        return OutputFormat(path: output) != nil
    }

    /// Whether `-o` names a folder: it ends in `/` or is an existing directory.
    private var outputIsFolder: Bool {
        guard let output, output != "-" else { return false }
        var isDirectory: ObjCBool = false
        return output.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    private func encode(_ widget: RenderedWidget, fonts: FontLibrary) throws -> Data {
        do {
            var warnings: [GraphicsError] = []
            let output = try resolvedFormat.encode(widget.drawing, scale: scale, fonts: { fonts }, warnings: &warnings)
            for warning in warnings {
                Console.error("warning: \(warning.location ?? widget.name): \(warning); a placeholder is drawn")
            }
            return Data(output.bytes)
        } catch {
            throw CommandFailure.input("\(widget.name): \(error)")
        }
    }

    private func write(_ widget: RenderedWidget, to path: String?, fonts: FontLibrary) throws {
        let data = try encode(widget, fonts: fonts)
        guard let path, path != "-" else {
            guard resolvedFormat != .png || isatty(STDOUT_FILENO) == 0 else {
                throw CommandFailure.usage("PNG output needs -o FILE (or a redirect): it is binary")
            }
            try Console.write(data)
            return
        }
        try reporting.save(data, to: path, what: describe(widget))
    }

    private func writeFolder(_ widgets: [RenderedWidget], fonts: FontLibrary) throws {
        guard let folder = output, folder != "-" else {
            throw CommandFailure.usage(
                "\(file) has \(widgets.count) widgets: give -o FOLDER to receive them, or --widget N for one")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.usage("cannot create folder \(folder): \(error.localizedDescription)")
        }
        var entries: [HTMLWriter.GalleryEntry] = []
        for (index, widget) in widgets.enumerated() {
            reporting.progress("rendering \(index + 1) of \(widgets.count): \(widget.name)")
            let name = "\(widget.name).\(resolvedFormat.rawValue)"
            try reporting.save(
                try encode(widget, fonts: fonts), to: (folder as NSString).appendingPathComponent(name),
                what: describe(widget))
            entries.append(HTMLWriter.GalleryEntry(title: widget.name, link: name, drawing: widget.drawing))
        }
        let title = "ARVis — \((file as NSString).lastPathComponent)"
        try reporting.save(
            Data(HTMLWriter().gallery(title: title, entries: entries).utf8),
            to: (folder as NSString).appendingPathComponent("index.html"),
            what: "gallery of \(widgets.count) widget\(widgets.count == 1 ? "" : "s")")
    }

    /// "1024×781 SVG", "2048×1562 px PNG" for the report of a written file.
    private func describe(_ widget: RenderedWidget) -> String {
        let extent = widget.drawing.extent
        let factor = resolvedFormat == .png ? scale : 1
        let size =
            "\(Int(saturating: (extent.width * factor).rounded()))×\(Int(saturating: (extent.height * factor).rounded()))"
        return resolvedFormat == .png ? "\(size) px PNG" : "\(size) \(resolvedFormat.rawValue.uppercased())"
    }
}

extension WidgetFormat: ExpressibleByArgument {}
