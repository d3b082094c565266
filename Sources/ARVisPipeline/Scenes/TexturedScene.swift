import ARVisGraphics
public import ARVisRender
public import ARVisSpatial
public import ARVisSpec

/// An environment laid out in 3D with everything it shows: one walk of the environment gives the
/// scene graph, each widget's render and each target's picture, ready for scene JSON, glTF or GLB.
///
/// ```swift
/// let scene = try await TexturedScene(environment, loader: SafeResourceLoader())
/// let glb = try GLTFExporter().glb(scene.graph, textures: try scene.textures(scale: 1))
/// ```
public struct TexturedScene: Sendable {
    /// Where every target, widget, placement and annotation goes.
    public let graph: SceneGraph
    /// The environment it was laid out from.
    public let environment: Environment
    /// What the loader brought: target pictures and widget images, by URL.
    public let resources: [String: RenderOptions.Resource]
    /// Why each resource that did not load failed.
    public let failures: [PipelineError]
    /// How the widgets are rendered for their textures (the loaded images already in).
    public let renderOptions: RenderOptions

    /// Lays `environment` out; with a `loader`, target pictures (whose aspect ratios size the targets)
    /// and widget images are loaded first.
    public init(
        _ environment: Environment, loader: (any ResourceLoader)? = nil, targetSize: SIMD2<Double>? = nil,
        viewpoint: Vec3? = nil, renderOptions: RenderOptions = RenderOptions()
    ) async {
        let targetURLs = (environment.imageTrackingConfigurations ?? []).map(\.imageURL)
        let loaded = await loader?.renderResources(targetURLs + Renderer.resourceURLs(in: .environment(environment)))
        resources = loaded?.resources ?? [:]
        failures = loaded?.failures ?? []
        var aspects: [String: Double] = [:]
        for url in targetURLs {
            if let size = resources[url]?.pixelSize, size.height > 0 { aspects[url] = size.width / size.height }
        }
        graph = SceneGraph(environment, imageSize: targetSize, imageAspects: aspects, viewpoint: viewpoint)
        self.environment = environment
        var options = renderOptions
        options.resources.merge(resources) { current, _ in current }
        self.renderOptions = options
    }

    /// Textures by scene node id: each widget's PNG render at `scale` pixels per point, and each
    /// image target's loaded picture.
    /// - Throws: ``RenderError`` when a widget draws more than the limits allow, ``GraphicsError``
    ///   when the fonts are missing or a texture exceeds the pixel limit.
    public func textures(scale: Double) throws -> [String: [UInt8]] {
        let renderer = try Renderer(options: renderOptions)
        let png = PNGWriter(fonts: renderer.fonts, scale: scale)
        var textures: [String: [UInt8]] = [:]
        for widget in try renderer.render(.environment(environment)) {
            textures[widget.name] = try png.write(widget.drawing)
        }
        for (index, image) in (environment.imageTrackingConfigurations ?? []).enumerated() {
            if let picture = resources[image.imageURL] {
                textures[WidgetNaming.target("image", index: index)] = picture.data
            }
        }
        return textures
    }
}
