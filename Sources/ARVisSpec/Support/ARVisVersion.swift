/// The ARVis release these modules belong to, as `arvis --version` and the server's `/health` report it.
public enum ARVisVersion {
    /// Semantic version.
    public static let current = "0.7.0"
}
