public import ARVisRender
public import ARVisSpec

extension ResourceLoader {
    /// Loads every picture `document` shows (images, video posters), ready for ``RenderOptions/resources``,
    /// and says why each missing one did not load.
    public func renderResources(for document: SpecDocument, concurrency: Int = 6) async -> (
        resources: [String: RenderOptions.Resource], failures: [PipelineError]
    ) {
        await renderResources(Renderer.resourceURLs(in: document), concurrency: concurrency)
    }

    /// Loads `references` as render resources.
    public func renderResources(_ references: [String], concurrency: Int = 6) async -> (
        resources: [String: RenderOptions.Resource], failures: [PipelineError]
    ) {
        let loaded = await loadAll(references, concurrency: concurrency)
        return (loaded.bytes.mapValues { RenderOptions.Resource(data: $0) }, loaded.failures)
    }
}
