import ARVisSupport
public import Foundation

/// Small model files that ask a reader for far more work than their size: what the tests use to
/// show that readers and the server bound their work by what a file asks for, not by its bytes.
public enum HostileModels {
    /// A GLB of about `nodes` × 40 bytes whose one mesh (a real triangle's three vertices) has an
    /// index accessor of `indexCount` entries with no data — all zeros, per glTF — drawn by
    /// `nodes` nodes, and `primitives` primitives that all read that accessor.
    public static func instancingBomb(nodes: Int, indexCount: Int = 6_000_000, primitives: Int = 1) -> [UInt8] {
        var positions: [UInt8] = []
        for value: Float in [0, 0, 0, 1, 0, 0, 0, 1, 0] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { positions += $0 }
        }
        let primitive: JSONValue = ["attributes": ["POSITION": 0], "indices": 1]
        let document: JSONValue = [
            "asset": ["version": "2.0"],
            "buffers": [["byteLength": .number(Double(positions.count))]],
            "bufferViews": [["buffer": 0, "byteOffset": 0, "byteLength": .number(Double(positions.count))]],
            "accessors": [
                [
                    "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0],
                    "max": [1, 1, 0],
                ],
                ["componentType": 5125, "count": .number(Double(indexCount)), "type": "SCALAR"],
            ],
            "meshes": [["primitives": .array(Array(repeating: primitive, count: primitives))]],
            "nodes": .array(Array(repeating: ["mesh": 0], count: nodes)),
            "scenes": [["nodes": .array((0..<nodes).map { .number(Double($0)) })]],
            "scene": 0,
        ]
        return glb(json: (try? JSONEncoder().encode(document)) ?? Data(), binary: positions)
    }

    /// A GLB container of `json` and `binary` chunks, each padded to 4 bytes.
    public static func glb(json: Data, binary: [UInt8]) -> [UInt8] {
        var jsonChunk = [UInt8](json)
        while jsonChunk.count % 4 != 0 { jsonChunk.append(0x20) }
        var binChunk = binary
        while binChunk.count % 4 != 0 { binChunk.append(0) }
        var out: [UInt8] = []
        func word(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { out += $0 } }
        word(0x4654_6C67)
        word(2)
        word(12 + 8 + jsonChunk.count + 8 + binChunk.count)
        word(jsonChunk.count)
        word(0x4E4F_534A)
        out += jsonChunk
        word(binChunk.count)
        word(0x004E_4942)
        out += binChunk
        return out
    }
}
