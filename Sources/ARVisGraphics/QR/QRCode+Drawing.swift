import ARVisSupport

extension QRCode {
    /// The light margin around the symbol that readers need, in modules (the standard asks for 4).
    public static let quietZone = 4

    /// The symbol as a drawing: black modules on white, `moduleSize` points each, with the quiet zone.
    /// Each row's runs of dark modules are one rectangle, so a version-40 code is a few thousand shapes.
    public func drawing(moduleSize: Double = 4) -> Drawing {
        let side = Double(size + 2 * Self.quietZone) * moduleSize
        var elements: [Element] = [
            .shape(Shape(path: .rect(Rect(x: 0, y: 0, width: side, height: side)), fill: .white))
        ]
        for run in darkRuns() {
            let rect = Rect(
                x: Double(run.x + Self.quietZone) * moduleSize, y: Double(run.y + Self.quietZone) * moduleSize,
                width: Double(run.length) * moduleSize, height: moduleSize)
            elements.append(.shape(Shape(path: .rect(rect), fill: .black)))
        }
        return Drawing(extent: Size(width: side, height: side), title: "QR Code", elements: elements)
    }

    /// A compact standalone SVG: one path of the dark runs on a white square, `moduleSize` points a module.
    public func svg(moduleSize: Double = 4) -> String {
        let modules = size + 2 * Self.quietZone
        let side = Double(modules) * moduleSize
        var path = ""
        for run in darkRuns() {
            path += "M\(run.x + Self.quietZone) \(run.y + Self.quietZone)h\(run.length)v1h-\(run.length)z"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(side.formattedForSVG)" height="\(side.formattedForSVG)" viewBox="0 0 \(modules) \(modules)" \
            shape-rendering="crispEdges"><title>QR Code</title><rect width="\(modules)" height="\(modules)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>

            """
    }

    /// Horizontal runs of dark modules, row by row.
    private func darkRuns() -> [(x: Int, y: Int, length: Int)] {
        var runs: [(x: Int, y: Int, length: Int)] = []
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x: x, y: y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size, self[x: x, y: y] { x += 1 }
                runs.append((start, y, x - start))
            }
        }
        return runs
    }
}

extension Double {
    /// The number as SVG writes it: no trailing `.0`.
    fileprivate var formattedForSVG: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
