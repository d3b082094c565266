import ArgumentParser

/// `arvis-bench`: release-mode benchmarks that print medians and `RESULT name value unit` lines.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arvis-bench",
        abstract: "ARVis benchmarks. Run in release mode: swift run -c release arvis-bench load",
        subcommands: [
            Load.self, RenderBench.self, RenderVersusVega.self, RelocalizationBench.self, PacketBench.self,
            PlacementBench.self, RelocalizationVersusOpen3D.self, TapsBench.self, PoissonBench.self,
            PlantVersusScipy.self, TreeGroupBench.self, PlanBench.self, HostileBench.self, PictureBench.self,
            ServeBench.self,
            LiveBench.self, ModelsBench.self, UploadBench.self, StudioBench.self, ClusterBench.self,
        ]
    )
}
