/// The decoders of `EXT_meshopt_compression`: the attribute, triangle and index codecs of the
/// extension's Appendix A and the octahedral, quaternion and exponential filters of its Appendix B.
///
/// Every stream is outside input. Each decoder checks, before it reads, that the bytes it is about
/// to read are there (the same checks, at the same places, as the meshoptimizer library's decoders,
/// so the two accept the same streams), and writes only inside the `count × stride` bytes the caller
/// allocated after charging them to its budget. A damaged stream is refused with what is wrong.
public enum MeshoptDecoder {
    /// A compressed view's codec.
    public enum Mode: String, Sendable {
        /// Mode 0: elements of any size, as byte deltas from the previous element.
        case attributes = "ATTRIBUTES"
        /// Mode 1: a triangle list, as edge and vertex FIFO references.
        case triangles = "TRIANGLES"
        /// Mode 2: any index sequence, as deltas from one of two baselines.
        case indices = "INDICES"
    }

    /// What is applied to attribute elements after decoding.
    public enum Filter: String, Sendable {
        /// Elements as decoded.
        case none = "NONE"
        /// Unit vectors from octahedral coordinates, 8- or 16-bit.
        case octahedral = "OCTAHEDRAL"
        /// Unit quaternions from their three smallest components, 16-bit.
        case quaternion = "QUATERNION"
        /// 32-bit floats from an 8-bit exponent and a 24-bit mantissa.
        case exponential = "EXPONENTIAL"
    }

    /// Why a stream or its parameters were refused.
    public struct Failure: Error, Equatable, Sendable {
        /// What is wrong, in a sentence.
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// The `count × stride` bytes `stream` decodes to in `mode`, `filter` applied.
    /// - Throws: ``Failure`` when the parameters break the extension's rules or the stream is damaged.
    public static func decode(_ stream: [UInt8], count: Int, stride: Int, mode: Mode, filter: Filter) throws(Failure)
        -> [UInt8]
    {
        try check(count: count, stride: stride, mode: mode, filter: filter)
        // Refused before the output is allocated: a stream too short for `count` elements.
        let least = minimumSize(count: count, stride: stride, mode: mode)
        guard stream.count >= least else {
            throw Failure("the stream has \(stream.count) bytes; \(count) elements take at least \(least)")
        }
        var output = [UInt8](repeating: 0, count: count * stride)
        guard count > 0 else { return output }
        var failure: Failure?
        stream.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                do throws(Failure) {
                    switch mode {
                    case .attributes: try decodeAttributes(input, count: count, stride: stride, into: out)
                    case .triangles: try decodeTriangles(input, count: count, stride: stride, into: out)
                    case .indices: try decodeIndexSequence(input, count: count, stride: stride, into: out)
                    }
                    apply(filter, to: out, count: count, stride: stride)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Applies `filter` to `count` decoded attribute elements of `stride` bytes in place.
    /// - Throws: ``Failure`` when the filter does not take the stride, or `bytes` holds fewer than
    ///   `count × stride` bytes.
    public static func apply(_ filter: Filter, to bytes: inout [UInt8], count: Int, stride: Int) throws(Failure) {
        try check(count: count, stride: stride, mode: .attributes, filter: filter)
        guard count <= bytes.count / stride else { throw Failure("fewer bytes than count × byteStride") }
        bytes.withUnsafeMutableBytes { apply(filter, to: $0, count: count, stride: stride) }
    }

    private static func apply(_ filter: Filter, to out: UnsafeMutableRawBufferPointer, count: Int, stride: Int) {
        switch filter {
        case .none: break
        case .octahedral:
            if stride == 4 {
                octahedral(out, count: count, as: Int8.self)
            } else {
                octahedral(out, count: count, as: Int16.self)
            }
        case .quaternion: quaternion(out, count: count)
        case .exponential: exponential(out, values: count * stride / 4)
        }
    }

    /// The rules the extension's JSON must keep: the stride each mode and filter takes.
    public static func check(count: Int, stride: Int, mode: Mode, filter: Filter) throws(Failure) {
        guard count >= 0 else { throw Failure("count is negative") }
        switch mode {
        case .attributes:
            guard stride > 0, stride <= 256, stride % 4 == 0 else {
                throw Failure("ATTRIBUTES takes a byteStride that is a multiple of 4, at most 256 (not \(stride))")
            }
        case .triangles, .indices:
            guard stride == 2 || stride == 4 else {
                throw Failure("\(mode.rawValue) takes a byteStride of 2 or 4 (not \(stride))")
            }
            guard filter == .none else { throw Failure("\(mode.rawValue) takes no filter") }
            guard mode == .indices || count % 3 == 0 else {
                throw Failure("TRIANGLES takes a count divisible by 3 (not \(count))")
            }
        }
        switch filter {
        case .none: break
        case .octahedral:
            guard stride == 4 || stride == 8 else { throw Failure("OCTAHEDRAL takes a byteStride of 4 or 8") }
        case .quaternion:
            guard stride == 8 else { throw Failure("QUATERNION takes a byteStride of 8") }
        case .exponential:
            guard stride % 4 == 0 else { throw Failure("EXPONENTIAL takes a byteStride that is a multiple of 4") }
        }
    }

    /// The fewest bytes a stream of `count` elements can have: its header, what every block or
    /// element takes at the least, and its tail.
    public static func minimumSize(count: Int, stride: Int, mode: Mode) -> Int {
        switch mode {
        case .attributes:
            let blockMaximum = min((8192 / stride) & ~15, 256)
            let (fullBlocks, rest) = count.quotientAndRemainder(dividingBy: blockMaximum)
            func headers(_ elements: Int) -> Int { stride * (((elements + 15) / 16 + 3) / 4) }
            return 1 + fullBlocks * headers(blockMaximum) + (rest > 0 ? headers(rest) : 0) + max(stride, 32)
        case .triangles: return 1 + count / 3 + 16
        case .indices: return 1 + count + 4
        }
    }

    // MARK: - Mode 0: attributes

    /// The bytes every group must find ahead of it: a 4-bit group is 8 header bytes and up to 16
    /// escaped ones. The stream's tail (at least 32 bytes) guarantees it in a sound stream.
    private static let groupReadLimit = 24

    private static func decodeAttributes(
        _ input: UnsafeRawBufferPointer, count: Int, stride: Int, into out: UnsafeMutableRawBufferPointer
    ) throws(Failure) {
        guard input.count >= 1 + stride else {
            throw Failure("the attribute stream has \(input.count) bytes, too few for its header and tail")
        }
        try checkHeader(input[0], expected: 0xA0, versions: 0...0, what: "attribute")
        guard let bytes = input.bindMemory(to: UInt8.self).baseAddress,
            let output = out.bindMemory(to: UInt8.self).baseAddress
        else { throw truncated("attribute") }
        let end = input.count
        // The element before the first: the stream's last `stride` bytes.
        let previous = UnsafeMutablePointer<UInt8>.allocate(capacity: stride)
        defer { previous.deallocate() }
        previous.initialize(from: bytes + end - stride, count: stride)
        let deltas = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        defer { deltas.deallocate() }
        let blockMaximum = min((8192 / stride) & ~15, 256)
        var at = 1
        var first = 0
        while first < count {
            let elements = min(blockMaximum, count - first)
            let groups = (elements + 15) / 16
            for byte in 0..<stride {
                let headerSize = (groups + 3) / 4
                guard end - at >= headerSize else { throw truncated("attribute") }
                let header = bytes + at
                at += headerSize
                for group in 0..<groups {
                    guard end - at >= groupReadLimit else { throw truncated("attribute") }
                    let bits = (header[group / 4] >> UInt8((group % 4) * 2)) & 3
                    at += decodeGroup(bytes + at, bits: bits, into: deltas + group * 16)
                }
                var value = previous[byte]
                var target = output + first * stride + byte
                for element in 0..<elements {
                    let delta = deltas[element]
                    value &+= (delta >> 1) ^ (0 &- (delta & 1))
                    target.pointee = value
                    target += stride
                }
            }
            previous.update(from: output + (first + elements - 1) * stride, count: stride)
            first += elements
        }
        guard end - at == max(stride, 32) else {
            throw Failure(
                "the attribute stream has \(end - at) bytes after its blocks; its tail is \(max(stride, 32))")
        }
    }

    /// Decodes one group of 16 deltas coded with `bits` (0: zeros, 1: 2-bit, 2: 4-bit, 3: bytes);
    /// returns how many bytes it read (at most ``groupReadLimit``).
    @inline(__always)
    private static func decodeGroup(_ data: UnsafePointer<UInt8>, bits: UInt8, into deltas: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        switch bits {
        case 0:
            deltas.update(repeating: 0, count: 16)
            return 0
        case 1: return 4 + decodeSentinels(data, width: 2, into: deltas)
        case 2: return 8 + decodeSentinels(data, width: 4, into: deltas)
        default:
            deltas.update(from: data, count: 16)
            return 16
        }
    }

    /// Reads 16 `width`-bit deltas, most significant first in each byte; an all-ones delta is a
    /// sentinel whose value is the next of the bytes that follow. Returns how many of those it read.
    @inline(__always)
    private static func decodeSentinels(
        _ data: UnsafePointer<UInt8>, width: UInt8, into deltas: UnsafeMutablePointer<UInt8>
    )
        -> Int
    {
        let perByte = 8 / Int(width)
        let sentinel: UInt8 = (1 << width) - 1
        var escaped = data + 16 / perByte
        var out = deltas
        for index in 0..<16 / perByte {
            var byte = data[index]
            for _ in 0..<perByte {
                let code = byte >> (8 - width)
                byte <<= width
                if code == sentinel {
                    out.pointee = escaped.pointee
                    escaped += 1
                } else {
                    out.pointee = code
                }
                out += 1
            }
        }
        return escaped - (data + 16 / perByte)
    }

    // MARK: - Mode 1: triangles

    private static func decodeTriangles(
        _ input: UnsafeRawBufferPointer, count: Int, stride: Int, into out: UnsafeMutableRawBufferPointer
    ) throws(Failure) {
        let triangles = count / 3
        // A header, a code per triangle and the 16-byte table at the end.
        guard input.count >= 1 + triangles + 16 else {
            throw Failure("the triangle stream has \(input.count) bytes, too few for \(triangles) triangles")
        }
        try checkHeader(input[0], expected: 0xE1, versions: 0...1, what: "triangle")
        guard let bytes = input.bindMemory(to: UInt8.self).baseAddress else { throw truncated("triangle") }
        let version = Int(bytes[0] & 0x0F)
        let fecLimit: UInt32 = version >= 1 ? 13 : 15
        let safeEnd = bytes + input.count - 16
        let table = safeEnd
        var code = bytes + 1
        var data = code + triangles
        var edges = Fifo(pairs: true)
        var vertices = Fifo(pairs: false)
        defer {
            edges.free()
            vertices.free()
        }
        var next: UInt32 = 0
        var last: UInt32 = 0
        var writer = IndexWriter(out, stride: stride)
        for _ in 0..<triangles {
            // Each triangle reads at most 16 data bytes (a byte and three 5-byte indices), which the
            // table after `safeEnd` leaves room for.
            guard data <= safeEnd else { throw truncated("triangle") }
            let triangle = code.pointee
            code += 1
            if triangle < 0xF0 {
                let (a, b) = edges.edge(Int(triangle >> 4))
                let fec = UInt32(triangle & 15)
                let c: UInt32
                if fec < fecLimit {
                    if fec == 0 {
                        c = next
                        next &+= 1
                        vertices.push(c)
                    } else {
                        c = vertices.vertex(Int(fec))
                    }
                } else {
                    // 13 and 14 are the last index less or more one; 15 an index coded in the data.
                    c = fec == 15 ? decodeIndex(&data, last) : (fec == 13 ? last &- 1 : last &+ 1)
                    last = c
                    vertices.push(c)
                }
                writer.write(a, b, c)
                edges.push(c, b)
                edges.push(a, c)
            } else {
                let aux: UInt8
                let explicitFirst = triangle == 0xFF
                if triangle < 0xFE {
                    aux = table[Int(triangle & 15)]
                } else {
                    aux = data.pointee
                    data += 1
                    if aux == 0 { next = 0 }
                }
                let feb = Int(aux >> 4)
                let fec = Int(aux & 15)
                var a: UInt32 = 0
                if !explicitFirst {
                    a = next
                    next &+= 1
                }
                var b = feb == 0 ? next : vertices.vertex(feb - 1)
                if feb == 0 { next &+= 1 }
                var c = fec == 0 ? next : vertices.vertex(fec - 1)
                if fec == 0 { next &+= 1 }
                if triangle >= 0xFE {
                    if explicitFirst {
                        a = decodeIndex(&data, last)
                        last = a
                    }
                    if feb == 15 {
                        b = decodeIndex(&data, last)
                        last = b
                    }
                    if fec == 15 {
                        c = decodeIndex(&data, last)
                        last = c
                    }
                }
                writer.write(a, b, c)
                // An index read from the data is new to the FIFO too (a table never holds 15).
                let explicit = triangle >= 0xFE
                vertices.push(a)
                if feb == 0 || (explicit && feb == 15) { vertices.push(b) }
                if fec == 0 || (explicit && fec == 15) { vertices.push(c) }
                edges.push(b, a)
                edges.push(c, b)
                edges.push(a, c)
            }
        }
        guard data == safeEnd else {
            throw Failure("the triangle stream's data does not end where its 16-byte table begins")
        }
    }

    /// A 16-entry ring of vertex indices or of edges (pairs of them); its initial contents are
    /// `UInt32.max`, as the library's.
    private struct Fifo {
        private let slots: UnsafeMutablePointer<UInt32>
        private var offset = 0
        private let width: Int

        init(pairs: Bool) {
            width = pairs ? 2 : 1
            slots = .allocate(capacity: 16 * width)
            slots.initialize(repeating: .max, count: 16 * width)
        }

        func free() { slots.deallocate() }

        /// The edge pushed `age` pushes ago (0: the newest).
        @inline(__always)
        func edge(_ age: Int) -> (UInt32, UInt32) {
            let slot = ((offset - 1 - age) & 15) * 2
            return (slots[slot], slots[slot + 1])
        }

        /// The vertex pushed `age` pushes ago (0: the newest).
        @inline(__always)
        func vertex(_ age: Int) -> UInt32 { slots[(offset - 1 - age) & 15] }

        @inline(__always)
        mutating func push(_ a: UInt32, _ b: UInt32 = 0) {
            slots[(offset & 15) * width] = a
            if width == 2 { slots[(offset & 15) * 2 + 1] = b }
            offset += 1
        }
    }

    /// Writes triangles as 16- or 32-bit little-endian indices.
    private struct IndexWriter {
        let out: UnsafeMutableRawBufferPointer
        let stride: Int
        var at = 0

        init(_ out: UnsafeMutableRawBufferPointer, stride: Int) {
            self.out = out
            self.stride = stride
        }

        @inline(__always)
        mutating func write(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
            write(a)
            write(b)
            write(c)
        }

        @inline(__always)
        mutating func write(_ index: UInt32) {
            if stride == 2 {
                out.storeBytes(of: UInt16(truncatingIfNeeded: index).littleEndian, toByteOffset: at, as: UInt16.self)
            } else {
                out.storeBytes(of: index.littleEndian, toByteOffset: at, as: UInt32.self)
            }
            at += stride
        }
    }

    /// An index coded as a zigzag delta from `last` in a variable-length integer.
    @inline(__always)
    private static func decodeIndex(_ data: inout UnsafePointer<UInt8>, _ last: UInt32) -> UInt32 {
        let v = readVarint(&data)
        return last &+ ((v >> 1) ^ (0 &- (v & 1)))
    }

    /// Unsigned LEB128 of at most five bytes (a longer run stops after the fifth, as the library's).
    @inline(__always)
    private static func readVarint(_ data: inout UnsafePointer<UInt8>) -> UInt32 {
        let lead = data.pointee
        data += 1
        guard lead >= 128 else { return UInt32(lead) }
        var result = UInt32(lead & 127)
        var shift: UInt32 = 7
        for _ in 0..<4 {
            let group = data.pointee
            data += 1
            result |= UInt32(group & 127) &<< shift
            shift += 7
            if group < 128 { break }
        }
        return result
    }

    // MARK: - Mode 2: indices

    private static func decodeIndexSequence(
        _ input: UnsafeRawBufferPointer, count: Int, stride: Int, into out: UnsafeMutableRawBufferPointer
    ) throws(Failure) {
        // A header, a byte per index at least and the 4-byte tail.
        guard input.count >= 1 + count + 4 else {
            throw Failure("the index stream has \(input.count) bytes, too few for \(count) indices")
        }
        try checkHeader(input[0], expected: 0xD1, versions: 0...1, what: "index")
        guard let bytes = input.bindMemory(to: UInt8.self).baseAddress else { throw truncated("index") }
        let safeEnd = bytes + input.count - 4
        var data = bytes + 1
        var baselines: (UInt32, UInt32) = (0, 0)
        var writer = IndexWriter(out, stride: stride)
        for _ in 0..<count {
            // An index reads at most 5 bytes; the tail leaves room for the last.
            guard data < safeEnd else { throw truncated("index") }
            let v = readVarint(&data)
            let delta = (v >> 2) ^ (0 &- ((v >> 1) & 1))
            let index: UInt32
            if v & 1 == 0 {
                baselines.0 &+= delta
                index = baselines.0
            } else {
                baselines.1 &+= delta
                index = baselines.1
            }
            writer.write(index)
        }
        guard data == safeEnd else { throw Failure("the index stream's data does not end where its tail begins") }
    }

    // MARK: - Filters

    /// Unit vectors from octahedral x and y over a z that codes 1.0; the fourth component is kept.
    private static func octahedral<Component: FixedWidthInteger & SignedInteger>(
        _ out: UnsafeMutableRawBufferPointer, count: Int, as: Component.Type
    ) {
        let size = MemoryLayout<Component>.size
        let maximum = Float(Component.max)
        func load(_ at: Int) -> Float {
            Float(Component(littleEndian: out.loadUnaligned(fromByteOffset: at, as: Component.self)))
        }
        func store(_ value: Float, _ at: Int) {
            out.storeBytes(of: rounded(value, Component.self).littleEndian, toByteOffset: at, as: Component.self)
        }
        for element in 0..<count {
            let base = element * 4 * size
            var x = load(base)
            var y = load(base + size)
            let z = load(base + 2 * size) - abs(x) - abs(y)
            // The lower hemisphere folded back: x − copysign(t, x) with t = min(z, 0) ≤ 0.
            let fold = min(z, 0)
            x += x >= 0 ? fold : -fold
            y += y >= 0 ? fold : -fold
            let scale = maximum / (x * x + y * y + z * z).squareRoot()
            // Three stores, no array: this runs once per normal of a mesh.
            store(x * scale, base)
            store(y * scale, base + size)
            store(z * scale, base + 2 * size)
        }
    }

    /// Unit quaternions from three components scaled by √2 and the index of the omitted largest one,
    /// coded in the fourth component's two low bits over a K-bit 1.0.
    private static func quaternion(_ out: UnsafeMutableRawBufferPointer, count: Int) {
        func load(_ at: Int) -> Int16 { Int16(littleEndian: out.loadUnaligned(fromByteOffset: at, as: Int16.self)) }
        for element in 0..<count {
            let base = element * 8
            let last = load(base + 6)
            let scale = Float(0.5).squareRoot() / Float(last | 3)
            let x = Float(load(base)) * scale
            let y = Float(load(base + 2)) * scale
            let z = Float(load(base + 4)) * scale
            let w = max(0, 1 - x * x - y * y - z * z).squareRoot()
            let largest = Int(last & 3)
            func store(_ value: Float, after: Int) {
                out.storeBytes(
                    of: rounded(value * 32767, Int16.self).littleEndian,
                    toByteOffset: base + ((largest + after) & 3) * 2, as: Int16.self)
            }
            store(x, after: 1)
            store(y, after: 2)
            store(z, after: 3)
            store(w, after: 0)
        }
    }

    /// 32-bit floats 2^e × m from a signed 8-bit exponent over a signed 24-bit mantissa.
    private static func exponential(_ out: UnsafeMutableRawBufferPointer, values: Int) {
        for index in 0..<values {
            let v = UInt32(littleEndian: out.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            let mantissa = Int32(bitPattern: v &<< 8) >> 8
            let exponent = Int32(bitPattern: v) >> 24
            let power = Float(bitPattern: UInt32(bitPattern: exponent &+ 127) &<< 23)
            out.storeBytes(
                of: (power * Float(mantissa)).bitPattern.littleEndian, toByteOffset: index * 4, as: UInt32.self)
        }
    }

    /// `value` rounded half away from zero into `Component`: the library's `int(v ± 0.5)` then a
    /// narrowing cast, without the undefined cases (a value past every integer, or not a number, is 0).
    @inline(__always)
    private static func rounded<Component: FixedWidthInteger>(_ value: Float, _: Component.Type) -> Component {
        let whole = (value + (value >= 0 ? 0.5 : -0.5)).rounded(.towardZero)
        guard let exact = Int32(exactly: whole) else { return 0 }
        return Component(truncatingIfNeeded: exact)
    }

    // MARK: - Shared

    private static func checkHeader(_ byte: UInt8, expected: UInt8, versions: ClosedRange<Int>, what: String)
        throws(Failure)
    {
        guard byte & 0xF0 == expected & 0xF0 else {
            throw Failure("the \(what) stream does not start with 0x\(String(expected, radix: 16))")
        }
        let version = Int(byte & 0x0F)
        guard versions.contains(version) else {
            throw Failure(
                "the \(what) stream is in version \(version) of its codec, which ARVis does not read (at most \(versions.upperBound))"
            )
        }
    }

    private static func truncated(_ what: String) -> Failure {
        Failure("the \(what) stream ends before its last element")
    }
}
