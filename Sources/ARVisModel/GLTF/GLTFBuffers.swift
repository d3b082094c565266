import ARVisGraphics
import ARVisSupport
import Foundation

/// The buffers of a glTF file, loaded once, and typed reads of its accessors with every range checked.
struct GLTFBuffers {
    let document: GLTFDocument
    private(set) var buffers: [[UInt8]] = []
    /// The buffers with no data: no `uri`, and not the GLB's binary chunk. Only a view nothing reads,
    /// or one whose bytes `EXT_meshopt_compression` gives, may point into one (a fallback buffer).
    private(set) var placeholders: Set<Int> = []
    let external: ((String) throws(ModelError) -> [UInt8])?
    /// The components decoded so far, over every accessor read: an accessor without a bufferView
    /// is all zeros at no cost in the file, so what a file may make the reader allocate is bounded
    /// here, not by its size.
    let decoded: Budget
    /// The compressed views and Draco streams decoded so far, each decoded once.
    let decompressed = DecompressedViews()

    /// The most accessor components a file may make the reader decode: 64 million (256 MB of floats),
    /// more than a 200 MB upload can hold in its buffers.
    static let componentBudget = 64_000_000

    /// The most bytes a file's compressed buffer views may decode to: 512 MB, checked before each
    /// view is allocated (a stream of a few bytes may claim a view of any length).
    static let decompressedByteBudget = 512_000_000

    /// The buffers of `document`; `componentBudget`: the most numbers its accessors may decode to
    /// (``componentBudget`` but in tests).
    init(
        document: GLTFDocument, glbBuffer: [UInt8]?, external: ((String) throws(ModelError) -> [UInt8])?,
        componentBudget: Int = GLTFBuffers.componentBudget
    ) throws(ModelError) {
        self.document = document
        self.external = external
        decoded = Budget(
            limit: componentBudget,
            excess:
                "the file's accessors decode to more than \(componentBudget) numbers (accessors without data, or one accessor read many times)"
        )
        for (index, buffer) in (document.buffers ?? []).enumerated() {
            let location = "buffers[\(index)]"
            let bytes: [UInt8]
            if let uri = buffer.uri {
                bytes = try load(uri: uri, location: location)
            } else if index == 0, let glbBuffer {
                bytes = glbBuffer
            } else {
                placeholders.insert(index)
                buffers.append([])
                continue
            }
            guard buffer.byteLength >= 0, bytes.count >= buffer.byteLength else {
                throw ModelError(
                    .truncated, "the buffer holds \(bytes.count) bytes, fewer than its byteLength \(buffer.byteLength)",
                    location: location)
            }
            buffers.append(bytes)
        }
    }

    /// The bytes of a `data:` URI, or of a relative file through `external`.
    func load(uri: String, location: String) throws(ModelError) -> [UInt8] {
        if uri.hasPrefix("data:") {
            guard let comma = uri.firstIndex(of: ","), uri[..<comma].hasSuffix(";base64"),
                let data = Data(base64Encoded: String(uri[uri.index(after: comma)...]))
            else {
                throw ModelError(.invalid, "the data URI is not base64", location: location + ".uri")
            }
            return [UInt8](data)
        }
        guard let external else {
            throw ModelError(
                .notFound,
                "the file names an external resource '\(uri.prefix(80))'; give a .glb or a .gltf with embedded data",
                location: location + ".uri")
        }
        return try external(uri.removingPercentEncoding ?? uri)
    }

    /// The bytes a buffer view spans.
    func viewBytes(_ index: Int, location: String) throws(ModelError) -> [UInt8] {
        let (bytes, start, length, _) = try view(index, location: location)
        return Array(bytes[start..<start + length])
    }

    /// The bytes behind buffer view `index` (decoded first when compressed), where in them the view
    /// starts, its length and its stride.
    private func view(_ index: Int, location: String) throws(ModelError) -> (
        bytes: [UInt8], start: Int, length: Int, stride: Int?
    ) {
        guard let views = document.bufferViews, views.indices.contains(index) else {
            throw ModelError(.invalid, "bufferView \(index) does not exist", location: location)
        }
        let view = views[index]
        if let stride = view.byteStride, !(4...252).contains(stride) {
            throw ModelError(.invalid, "bufferView \(index) has a byteStride outside 4…252", location: location)
        }
        if let compressed = view.extensions?.meshopt {
            return (try decompress(index, view, compressed), 0, view.byteLength, view.byteStride)
        }
        let (buffer, start) = try range(
            buffer: view.buffer, offset: view.byteOffset ?? 0, length: view.byteLength, of: "bufferView \(index)",
            location: location)
        return (buffers[buffer], start, view.byteLength, view.byteStride)
    }

    /// Checks that `length` bytes from `offset` lie in a buffer with data; returns the buffer and the offset.
    private func range(buffer: Int, offset: Int, length: Int, of what: String, location: String) throws(ModelError)
        -> (Int, Int)
    {
        guard buffers.indices.contains(buffer), offset >= 0, length >= 0, offset <= buffers[buffer].count,
            length <= buffers[buffer].count - offset
        else {
            if placeholders.contains(buffer) {
                throw ModelError(
                    .notFound,
                    "\(what) reads buffer \(buffer), which has no uri and is not the GLB's binary chunk",
                    location: location)
            }
            throw ModelError(.invalid, "\(what) lies outside its buffer", location: location)
        }
        return (buffer, offset)
    }

    /// The bytes of a view `EXT_meshopt_compression` compresses, decoded once; the parent view's
    /// own buffer (a fallback) is never read.
    private func decompress(_ index: Int, _ view: GLTFDocument.BufferView, _ compressed: GLTFDocument.MeshoptView)
        throws(ModelError) -> [UInt8]
    {
        if let bytes = decompressed.views[index] { return bytes }
        let location = "bufferViews[\(index)].extensions.EXT_meshopt_compression"
        guard let mode = MeshoptDecoder.Mode(rawValue: compressed.mode) else {
            throw ModelError(.invalid, "mode is ATTRIBUTES, TRIANGLES or INDICES", location: location + ".mode")
        }
        guard let filter = MeshoptDecoder.Filter(rawValue: compressed.filter ?? "NONE") else {
            throw ModelError(
                .invalid, "filter is NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL", location: location + ".filter")
        }
        let (count, stride) = (compressed.count, compressed.byteStride)
        guard count >= 0, stride > 0, count <= view.byteLength / stride, count * stride == view.byteLength,
            view.byteStride.map({ $0 == stride }) ?? true
        else {
            throw ModelError(
                .invalid, "count × byteStride (\(count) × \(stride)) is the bufferView's byteLength \(view.byteLength)",
                location: location)
        }
        try decompressed.budget.charge(view.byteLength, location: location)
        let (buffer, start) = try range(
            buffer: compressed.buffer, offset: compressed.byteOffset ?? 0, length: compressed.byteLength,
            of: "the compressed data", location: location)
        let bytes: [UInt8]
        do {
            bytes = try MeshoptDecoder.decode(
                Array(buffers[buffer][start..<start + compressed.byteLength]), count: count, stride: stride, mode: mode,
                filter: filter)
        } catch {
            throw ModelError(.invalid, error.message, location: location)
        }
        decompressed.views[index] = bytes
        return bytes
    }

    private static func componentSize(_ type: Int) -> Int? {
        switch type {
        case 5120, 5121: 1
        case 5122, 5123: 2
        case 5125, 5126: 4
        default: nil
        }
    }

    private static let widths = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16]

    /// An accessor's elements as float vectors of `width` components (normalized integers scaled to
    /// 0…1 or −1…1), sparse substitutions applied.
    func vectors(_ index: Int, width: Int, location: String) throws(ModelError) -> [Float] {
        let (accessor, values) = try components(index, location: location)
        guard Self.widths[accessor.type] == width else {
            throw ModelError(
                .invalid, "the accessor is \(accessor.type); \(width == 1 ? "SCALAR" : "VEC\(width)") was expected",
                location: location)
        }
        return values
    }

    /// An index accessor: unsigned bytes, shorts or ints.
    func indices(_ index: Int, location: String) throws(ModelError) -> [UInt32] {
        guard let accessor = document.accessors?[safe: index], accessor.type == "SCALAR",
            [5121, 5123, 5125].contains(accessor.componentType), accessor.normalized != true
        else {
            throw ModelError(.invalid, "indices are an accessor of unsigned integer scalars", location: location)
        }
        guard accessor.sparse == nil, accessor.componentType == 5125, let viewIndex = accessor.bufferView else {
            // Bytes and shorts are exact as floats; so are sparse 32-bit indices below 2²⁴.
            return try components(index, location: location).1.map { UInt32($0) }
        }
        let (bytes, start, length, stride) = try view(viewIndex, location: "accessors[\(index)]")
        let offset = accessor.byteOffset ?? 0
        let step = stride ?? 4
        guard offset >= 0, offset <= length, accessor.count >= 0, accessor.count <= Self.elementLimit,
            accessor.count == 0 || (accessor.count - 1) * step + 4 <= length - offset
        else {
            throw ModelError(
                .invalid, "the accessor's \(accessor.count) elements run past its bufferView",
                location: "accessors[\(index)]")
        }
        try decoded.charge(accessor.count, location: "accessors[\(index)]")
        return bytes.withUnsafeBytes { raw in
            (0..<accessor.count).map {
                UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + offset + $0 * step, as: UInt32.self))
            }
        }
    }

    /// The most elements an accessor may have.
    static let elementLimit = 50_000_000

    /// The element count of accessor `index`, checked to be within the reader's limit.
    func elementCount(_ index: Int, location: String) throws(ModelError) -> Int {
        guard let accessor = document.accessors?[safe: index] else {
            throw ModelError(.invalid, "accessor \(index) does not exist", location: location)
        }
        return try Self.checkedCount(accessor, index: index)
    }

    /// The element count of `accessor` (accessor `index`), checked to be within the reader's limit.
    private static func checkedCount(_ accessor: GLTFDocument.Accessor, index: Int) throws(ModelError) -> Int {
        guard (0...elementLimit).contains(accessor.count) else {
            throw ModelError(
                .tooLarge, "the accessor has \(accessor.count) elements; at most 50 000 000 are read",
                location: "accessors[\(index)]")
        }
        return accessor.count
    }

    /// Every component of an accessor's elements, in order.
    private func components(_ index: Int, location: String) throws(ModelError) -> (GLTFDocument.Accessor, [Float]) {
        guard let accessors = document.accessors, accessors.indices.contains(index) else {
            throw ModelError(.invalid, "accessor \(index) does not exist", location: location)
        }
        let accessor = accessors[index]
        let place = "accessors[\(index)]"
        guard let size = Self.componentSize(accessor.componentType), let width = Self.widths[accessor.type] else {
            throw ModelError(
                .invalid, "componentType \(accessor.componentType) or type \(accessor.type) is not glTF's",
                location: place)
        }
        _ = try Self.checkedCount(accessor, index: index)
        try decoded.charge(accessor.count * width, location: place)
        var values = [Float](repeating: 0, count: accessor.count * width)
        if let viewIndex = accessor.bufferView {
            let (bytes, start, length, stride) = try view(viewIndex, location: place)
            let elementSize = size * width
            let step = stride ?? elementSize
            let offset = accessor.byteOffset ?? 0
            guard offset >= 0, offset <= length,
                accessor.count == 0 || (accessor.count - 1) * step + elementSize <= length - offset
            else {
                throw ModelError(
                    .invalid, "the accessor's \(accessor.count) elements run past its bufferView", location: place)
            }
            read(
                bytes, from: start + offset, step: step, count: accessor.count, width: width,
                accessor: accessor, size: size, into: &values, at: 0)
        }
        if let sparse = accessor.sparse {
            try applySparse(sparse, accessor: accessor, size: size, width: width, to: &values, location: place)
        }
        return (accessor, values)
    }

    private func applySparse(
        _ sparse: GLTFDocument.Sparse, accessor: GLTFDocument.Accessor, size: Int, width: Int, to values: inout [Float],
        location: String
    ) throws(ModelError) {
        guard sparse.count >= 0, sparse.count <= accessor.count,
            let indexSize = Self.componentSize(sparse.indices.componentType),
            [5121, 5123, 5125].contains(sparse.indices.componentType)
        else {
            throw ModelError(.invalid, "the sparse substitution is malformed", location: location + ".sparse")
        }
        let (indexBytes, indexStart, indexLength, _) = try view(
            sparse.indices.bufferView, location: location + ".sparse.indices")
        let (valueBytes, valueStart, valueLength, _) = try view(
            sparse.values.bufferView, location: location + ".sparse.values")
        let indexOffset = sparse.indices.byteOffset ?? 0
        let valueOffset = sparse.values.byteOffset ?? 0
        guard indexOffset >= 0, valueOffset >= 0, indexOffset <= indexLength, valueOffset <= valueLength,
            sparse.count * indexSize <= indexLength - indexOffset,
            sparse.count * size * width <= valueLength - valueOffset
        else {
            throw ModelError(
                .invalid, "the sparse substitution runs past its bufferViews", location: location + ".sparse")
        }
        let indexAccessor = GLTFDocument.Accessor(
            componentType: sparse.indices.componentType, count: sparse.count, type: "SCALAR")
        var targets = [Float](repeating: 0, count: sparse.count)
        read(
            indexBytes, from: indexStart + indexOffset, step: indexSize, count: sparse.count, width: 1,
            accessor: indexAccessor, size: indexSize, into: &targets, at: 0)
        var replacements = [Float](repeating: 0, count: sparse.count * width)
        read(
            valueBytes, from: valueStart + valueOffset, step: size * width, count: sparse.count, width: width,
            accessor: accessor, size: size, into: &replacements, at: 0)
        for (k, target) in targets.enumerated() {
            let element = Int(target)
            guard element < accessor.count else {
                throw ModelError(
                    .invalid, "a sparse index \(element) is past the accessor's count", location: location + ".sparse")
            }
            for c in 0..<width { values[element * width + c] = replacements[k * width + c] }
        }
    }

    /// Decodes `count` elements of `width` components; ranges were checked by the caller.
    private func read(
        _ bytes: [UInt8], from start: Int, step: Int, count: Int, width: Int, accessor: GLTFDocument.Accessor,
        size: Int,
        into values: inout [Float], at first: Int
    ) {
        let normalized = accessor.normalized ?? false
        bytes.withUnsafeBytes { raw in
            values.withUnsafeMutableBufferPointer { out in
                for element in 0..<count {
                    let base = start + element * step
                    for c in 0..<width {
                        let at = base + c * size
                        let value: Float
                        switch accessor.componentType {
                        case 5126:
                            value = Float(
                                bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                            )
                        case 5125:
                            value = Float(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                        case 5123:
                            let v = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt16.self))
                            value = normalized ? Float(v) / 65535 : Float(v)
                        case 5122:
                            let v = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int16.self))
                            value = normalized ? max(Float(v) / 32767, -1) : Float(v)
                        case 5121: value = normalized ? Float(raw[at]) / 255 : Float(raw[at])
                        default:
                            let v = Int8(bitPattern: raw[at])
                            value = normalized ? max(Float(v) / 127, -1) : Float(v)
                        }
                        out[first + element * width + c] = value
                    }
                }
            }
        }
    }
}

/// The decoded bytes of a file's compressed buffer views, and the meshes of its Draco streams (by
/// buffer view), shared by the copies of one ``GLTFBuffers``.
final class DecompressedViews {
    var views: [Int: [UInt8]] = [:]
    var meshes: [Int: DracoMesh] = [:]
    /// Their bytes, charged before each is allocated.
    let budget = Budget(
        limit: GLTFBuffers.decompressedByteBudget,
        excess: "the file's compressed views decode to more than \(GLTFBuffers.decompressedByteBudget / 1_000_000) MB")
}

/// A running total charged against a limit, shared by the copies of one ``GLTFBuffers``.
final class Budget {
    private var used = 0
    let limit: Int
    /// What passing the limit means, as the error says it.
    let excess: String

    init(limit: Int, excess: String) {
        self.limit = limit
        self.excess = excess
    }

    /// What may still be charged.
    var remaining: Int { limit - used }

    /// Counts `amount` more; throws `tooLarge` past the limit.
    func charge(_ amount: Int, location: String) throws(ModelError) {
        used += amount
        guard used <= limit else { throw ModelError(.tooLarge, excess, location: location) }
    }
}
