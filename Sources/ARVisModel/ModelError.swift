public import ARVisSupport

/// The error ARVisModel throws: a 3D file that cannot be read or a model that cannot be written.
///
/// `location` names where in the file the problem is: a byte offset (`byte 1024`), a glTF JSON
/// path (`meshes[0].primitives[1]`), a USD prim path (`/Root/Mesh.points`) or a package entry.
public typealias ModelError = ModuleError<ModelErrorDomain>

/// The codes of ``ModelError``.
public enum ModelErrorDomain {}

extension ErrorCode<ModelErrorDomain> {
    /// The file is of a kind, version or feature ARVis does not read (Draco meshes, a zip
    /// with compressed entries, a newer crate version).
    public static let unsupported = Self("unsupported")
    /// The file breaks its format's rules: a bad magic number, an index out of range, bad JSON.
    public static let invalid = Self("invalid")
    /// The file ends before the data it announces.
    public static let truncated = Self("truncated")
    /// The file passes a limit (vertices, triangles, nodes, nesting, bytes).
    public static let tooLarge = Self("tooLarge")
    /// Something the file names is absent (a buffer, a texture, a prim).
    public static let notFound = Self("notFound")
}
