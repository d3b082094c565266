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

/// How the values of a decoder's attributes are predicted: `(corrections, method, transform, buffer)`
/// to values.
typealias DracoPredictor = (_ corrections: [UInt32], _ method: Int8, _ transform: Int8, _ buffer: inout DracoBuffer)
    throws(DracoFailure) -> [Int32]

/// The attributes of a mesh: each decoder's descriptors, then its values, transform parameters and
/// original values (`sequential_attribute_decoders_controller.cc`).
enum DracoAttributeSection {
    /// An edgebreaker attribute decoder's identifiers (`CreateAttributesDecoder`).
    private struct Identifier {
        /// The attribute connectivity it uses, -1 for the mesh's.
        var connectivity: Int
        /// Whether its values sit on corners (cut along seams) rather than vertices.
        var perCorner: Bool
        var maximumDegree: Bool
    }

    static func decode(_ buffer: inout DracoBuffer, connectivity: DracoConnectivity, limits: DracoLimits)
        throws(DracoFailure) -> [UInt32: DracoAttribute]
    {
        let decoders = Int(try buffer.uint8("the attribute decoder count"))
        guard decoders > 0 else { throw buffer.failure("a mesh without attribute decoders") }
        var identifiers = [Identifier]()
        if let mesh = connectivity.edgebreaker {
            for _ in 0..<decoders { identifiers.append(try identifier(&buffer, tables: mesh.attributeTables.count)) }
        }
        var groups = [[DracoAttributeDescriptor]]()
        for _ in 0..<decoders { groups.append(try descriptors(&buffer)) }
        var attributes = [UInt32: DracoAttribute]()
        var positions: DracoPositions?
        var valueCount = 0
        for (index, group) in groups.enumerated() {
            let sequence: DracoSequence
            if let mesh = connectivity.edgebreaker {
                sequence = try self.sequence(identifiers[index], mesh, buffer: buffer)
            } else {
                sequence = .linear(points: connectivity.pointCount)
            }
            var portable = [DracoPortableValues]()
            for descriptor in group {
                valueCount += max(sequence.pointIDs.count, sequence.pointValues.count) * descriptor.components
                guard valueCount <= limits.maximumValues else {
                    throw buffer.failure("the attributes hold more than \(limits.maximumValues) values, over the limit")
                }
                let predict: DracoPredictor = { corrections, method, transform, buffer throws(DracoFailure) in
                    guard let mesh = connectivity.edgebreaker, method != 0 else {
                        // Without a corner table every method is the difference from the value before.
                        let inverse = try DracoPredictionTransform(reading: &buffer, kind: transform)
                        return inverse.undoDifferences(
                            corrections, components: descriptor.coding == 3 ? 2 : descriptor.components)
                    }
                    return try predicted(
                        corrections, method, transform, &buffer, mesh: mesh, identifier: identifiers[index],
                        sequence: sequence, positions: positions,
                        components: descriptor.coding == 3 ? 2 : descriptor.components)
                }
                let values = try DracoPortableValues.decode(
                    &buffer, descriptor, count: sequence.pointIDs.count, predict: predict)
                if positions == nil, descriptor.kind == 0, case .integers(let integers, 3) = values {
                    positions = DracoPositions(values: integers, pointValues: sequence.pointValues)
                }
                portable.append(values)
            }
            for (descriptor, values) in zip(group, portable) {
                guard attributes[descriptor.uniqueID] == nil else {
                    throw buffer.failure("two attributes with the unique id \(descriptor.uniqueID)")
                }
                let attribute = try values.original(descriptor, reading: &buffer)
                attributes[descriptor.uniqueID] = try perPoint(attribute, sequence.pointValues, buffer: buffer)
            }
        }
        return attributes
    }

    private static func identifier(_ buffer: inout DracoBuffer, tables: Int) throws(DracoFailure) -> Identifier {
        let connectivity = Int(Int8(bitPattern: try buffer.uint8("the decoder's attribute connectivity")))
        let kind = try buffer.uint8("the decoder's type")
        let traversal = try buffer.uint8("the decoder's traversal")
        guard connectivity >= -1, connectivity < tables else {
            throw buffer.failure("attribute connectivity \(connectivity) of \(tables)")
        }
        guard kind <= 1, traversal <= 1, kind == 0 || (connectivity >= 0 && traversal == 0) else {
            throw buffer.failure("an attribute decoder of type \(kind) and traversal \(traversal)")
        }
        return Identifier(connectivity: connectivity, perCorner: kind == 1, maximumDegree: traversal == 1)
    }

    /// The decoder's value order: a traversal of the mesh's table, or of its attribute table when its
    /// values sit on corners.
    private static func sequence(_ identifier: Identifier, _ mesh: DracoEdgebreaker, buffer: DracoBuffer)
        throws(DracoFailure)
        -> DracoSequence
    {
        let own = identifier.connectivity >= 0 ? mesh.attributeTables[identifier.connectivity].vertexCount : 0
        let slots = max(own, mesh.table.vertexCount)
        if identifier.perCorner {
            return try .traversal(
                of: mesh.attributeTables[identifier.connectivity], maximumDegree: false, vertexSlots: slots,
                cornerPoints: mesh.cornerPoints, points: mesh.pointCount, buffer: buffer)
        }
        return try .traversal(
            of: mesh.table, maximumDegree: identifier.maximumDegree, vertexSlots: slots,
            cornerPoints: mesh.cornerPoints,
            points: mesh.pointCount, buffer: buffer)
    }

    private static func predicted(
        _ corrections: [UInt32], _ method: Int8, _ transform: Int8, _ buffer: inout DracoBuffer, mesh: DracoEdgebreaker,
        identifier: Identifier, sequence: DracoSequence, positions: DracoPositions?, components: Int
    ) throws(DracoFailure) -> [Int32] {
        if identifier.perCorner {
            return try DracoPrediction(
                table: mesh.attributeTables[identifier.connectivity], sequence: sequence, positions: positions,
                components: components,
                buffer: buffer
            ).decode(corrections, method: method, transform: transform, reading: &buffer)
        }
        return try DracoPrediction(
            table: mesh.table, sequence: sequence, positions: positions, components: components, buffer: buffer
        )
        .decode(corrections, method: method, transform: transform, reading: &buffer)
    }

    /// The attribute's values per point, from its values in decoding order.
    private static func perPoint(_ attribute: DracoAttribute, _ pointValues: [Int32], buffer: DracoBuffer)
        throws(DracoFailure)
        -> DracoAttribute
    {
        let size = attribute.components * attribute.dataType.size
        let values = size == 0 ? 0 : attribute.bytes.count / size
        var result = attribute
        result.bytes = []
        result.bytes.reserveCapacity(pointValues.count * size)
        for value in pointValues {
            guard value >= 0, Int(value) < values else { throw buffer.failure("a point without a value") }
            result.bytes += attribute.bytes[Int(value) * size..<(Int(value) + 1) * size]
        }
        return result
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
            guard let dataType = DracoDataType(rawValue: type) else {
                throw buffer.failure("data type \(type) (1 to 11)")
            }
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
    static func decode(
        _ buffer: inout DracoBuffer, _ descriptor: DracoAttributeDescriptor, count: Int, predict: DracoPredictor
    )
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
            guard transform == expected else {
                throw buffer.failure("prediction transform \(transform), not \(expected)")
            }
        }
        var values = try corrections(&buffer, count: count * components, components: components)
        if method == -2 || transform == 1 { values = values.map(unzigzag) }
        guard method != -2 else { return .integers(values.map { Int32(bitPattern: $0) }, components: components) }
        return .integers(try predict(values, method, transform, &buffer), components: components)
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
            bytes = Self.floats(
                try DracoQuantization(reading: &buffer, components: descriptor.components).dequantize(values))
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
