/// One attribute as its decoder's data describes it (`AttributesDecoder::DecodeAttributesDecoderData`).
struct DracoAttributeDescriptor {
    var kind: UInt8
    var dataType: DracoDataType
    var components: Int
    var normalized: Bool
    var uniqueID: UInt32
    /// 0 generic (raw values), 1 integer, 2 quantized floats, 3 octahedral normals.
    var coding: UInt8 = 0
}

/// The attributes of a mesh: each decoder's descriptors, then its values, transform parameters and
/// original values (`sequential_attribute_decoders_controller.cc`).
enum DracoAttributeSection {
    static func decode(_ buffer: inout DracoBuffer, connectivity: DracoConnectivity, limits: DracoLimits)
        throws(DracoFailure) -> [UInt32: DracoAttribute]
    {
        let decoders = Int(try buffer.uint8("the attribute decoder count"))
        guard decoders > 0 else { throw buffer.failure("a mesh without attribute decoders") }
        guard connectivity.isSequential else { throw buffer.failure("edgebreaker attributes are not read yet") }
        var groups = [[DracoAttributeDescriptor]]()
        for _ in 0..<decoders { groups.append(try descriptors(&buffer)) }
        var attributes = [UInt32: DracoAttribute]()
        for group in groups {
            let values = connectivity.pointCount
            var portable = [DracoPortableValues]()
            for descriptor in group {
                portable.append(try DracoPortableValues.decode(&buffer, descriptor, count: values))
            }
            for (descriptor, values) in zip(group, portable) {
                guard attributes[descriptor.uniqueID] == nil else {
                    throw buffer.failure("two attributes with the unique id \(descriptor.uniqueID)")
                }
                attributes[descriptor.uniqueID] = try values.original(descriptor, reading: &buffer)
            }
        }
        return attributes
    }

    /// A decoder's attribute descriptors and their codings.
    private static func descriptors(_ buffer: inout DracoBuffer) throws(DracoFailure) -> [DracoAttributeDescriptor] {
        let count = try buffer.count("the decoder's attribute count", bytesEach: 6)
        guard count > 0 else { throw buffer.failure("an attribute decoder without attributes") }
        var descriptors = [DracoAttributeDescriptor]()
        for _ in 0..<count {
            let kind = try buffer.uint8("an attribute's kind")
            guard kind <= 8 else { throw buffer.failure("attribute kind \(kind) (0 to 8)") }
            let type = try buffer.uint8("an attribute's data type")
            guard let dataType = DracoDataType(rawValue: type) else { throw buffer.failure("data type \(type) (1 to 11)") }
            let components = Int(try buffer.uint8("an attribute's component count"))
            guard (1...16).contains(components) else { throw buffer.failure("\(components) components (1 to 16)") }
            let normalized = try buffer.uint8("an attribute's normalised flag") != 0
            let uniqueID = try buffer.varUInt32("an attribute's unique id")
            descriptors.append(
                DracoAttributeDescriptor(
                    kind: kind, dataType: dataType, components: components, normalized: normalized, uniqueID: uniqueID))
        }
        for index in descriptors.indices {
            let coding = try buffer.uint8("an attribute's coding")
            guard coding <= 3 else { throw buffer.failure("attribute coding \(coding) (0 to 3)") }
            descriptors[index].coding = coding
            let descriptor = descriptors[index]
            if coding == 2 || coding == 3, descriptor.dataType != .float32 {
                throw buffer.failure("quantized values of data type \(descriptor.dataType.rawValue), not float32")
            }
            if coding == 3, descriptor.components != 3 {
                throw buffer.failure("octahedral normals of \(descriptor.components) components, not 3")
            }
        }
        return descriptors
    }
}

/// An attribute's values as the stream carries them: raw bytes, or integers after prediction.
enum DracoPortableValues {
    case raw([UInt8])
    case integers([Int32], components: Int)

    /// Reads `count` values of `descriptor` (`SequentialIntegerAttributeDecoder` and its kin).
    static func decode(_ buffer: inout DracoBuffer, _ descriptor: DracoAttributeDescriptor, count: Int)
        throws(DracoFailure) -> Self
    {
        if descriptor.coding == 0 {
            let size = count * descriptor.components * descriptor.dataType.size
            return .raw(Array(try buffer.take(size, "the attribute's raw values")))
        }
        let components = descriptor.coding == 3 ? 2 : descriptor.components
        let method = Int8(bitPattern: try buffer.uint8("the prediction method"))
        guard (-2...6).contains(method) else { throw buffer.failure("prediction method \(method) (-2 to 6)") }
        var transform: Int8 = -1
        if method != -2 {
            transform = Int8(bitPattern: try buffer.uint8("the prediction transform"))
            let expected: Int8 = descriptor.coding == 3 ? 3 : 1
            guard transform == expected else { throw buffer.failure("prediction transform \(transform), not \(expected)") }
        }
        var values = try corrections(&buffer, count: count * components, components: components)
        if method == -2 || transform == 1 { values = values.map(unzigzag) }
        guard method != -2 else { return .integers(values.map { Int32(bitPattern: $0) }, components: components) }
        // Without a corner table (sequential connectivity) every method is the difference from the previous value.
        let inverse = try DracoPredictionTransform(reading: &buffer, kind: transform)
        return .integers(inverse.undoDifferences(values, components: components), components: components)
    }

    /// The stream's corrections: coded symbols, or raw integers of 1 to 4 bytes.
    private static func corrections(_ buffer: inout DracoBuffer, count: Int, components: Int) throws(DracoFailure)
        -> [UInt32]
    {
        if try buffer.uint8("whether the values are coded") != 0 {
            return try DracoSymbols.decode(count: count, components: components, from: &buffer)
        }
        let width = Int(try buffer.uint8("the values' byte width"))
        guard (1...4).contains(width) else { throw buffer.failure("values of \(width) bytes (1 to 4)") }
        let bytes = try buffer.take(count * width, "the raw values")
        return (0..<count).map { index in
            var value: UInt32 = 0
            for byte in 0..<width { value |= UInt32(bytes[bytes.startIndex + index * width + byte]) << (8 * byte) }
            return value
        }
    }

    private static func unzigzag(_ value: UInt32) -> UInt32 {
        value & 1 == 0 ? value >> 1 : ~(value >> 1)
    }

    /// The attribute's values in its data type, reading the parameters its coding needs.
    func original(_ descriptor: DracoAttributeDescriptor, reading buffer: inout DracoBuffer) throws(DracoFailure)
        -> DracoAttribute
    {
        let bytes: [UInt8]
        switch (self, descriptor.coding) {
        case (.raw(let raw), _): bytes = raw
        case (.integers(let values, _), 1): bytes = try Self.stored(values, as: descriptor.dataType, buffer: buffer)
        case (.integers(let values, _), 2):
            bytes = Self.floats(try DracoQuantization(reading: &buffer, components: descriptor.components).dequantize(values))
        case (.integers(let values, _), _):
            bytes = Self.floats(try DracoOctahedron(reading: &buffer).unitVectors(values))
        }
        return DracoAttribute(
            kind: descriptor.kind, dataType: descriptor.dataType, components: descriptor.components,
            normalized: descriptor.normalized, bytes: bytes)
    }

    /// Integers stored in `type`, truncated as Draco does.
    private static func stored(_ values: [Int32], as type: DracoDataType, buffer: DracoBuffer) throws(DracoFailure)
        -> [UInt8]
    {
        guard [.int8, .uint8, .int16, .uint16, .int32, .uint32].contains(type) else {
            throw buffer.failure("integer values stored as data type \(type.rawValue)")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * type.size)
        for value in values {
            let pattern = UInt32(bitPattern: value)
            for byte in 0..<type.size { bytes.append(UInt8(truncatingIfNeeded: pattern >> (8 * byte))) }
        }
        return bytes
    }

    private static func floats(_ values: [Float]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(values.count * 4)
        for value in values {
            let pattern = value.bitPattern
            for byte in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: pattern >> (8 * byte))) }
        }
        return bytes
    }
}
