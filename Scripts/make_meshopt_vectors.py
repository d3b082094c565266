#!/usr/bin/env python3
"""Writes Tests/ARVisModelTests/MeshoptVectors.swift: streams the meshoptimizer library encoded, and
the filters' outputs the library decoded, for MeshoptDecoderTests to hold ARVis's decoders to.

    pip install --pre meshoptimizer==0.2.30a0   # the library 0.22, built from source
    python3 Scripts/make_meshopt_vectors.py > Tests/ARVisModelTests/MeshoptVectors.swift
    python3 Scripts/make_meshopt_vectors.py --corpus Fuzz/Corpus/FuzzMeshopt   # FuzzMeshopt's seeds

The inputs are integer formulas the tests compute again (`attributeByte`, the grid's triangles), so
only the encoded streams and the filters' outputs are stored."""
import base64
import hashlib
import os
import sys

import meshoptimizer as mo
import numpy as np


def attribute_bytes(count, stride):
    """Element i, byte j: smooth in i, with a jump every fifth element (every delta coding is used)."""
    i = np.arange(count, dtype=np.int64)[:, None]
    j = np.arange(stride, dtype=np.int64)[None, :]
    return ((i * (j + 1) + np.where(i % 5 == 0, i * 31, 0) + j * 7) & 0xFF).astype(np.uint8)


def grid_triangles(width, height):
    """Two triangles per cell of a width × height grid of cells, row by row."""
    out = []
    for y in range(height):
        for x in range(width):
            a = y * (width + 1) + x
            b, c, d = a + 1, a + width + 1, a + width + 2
            out += [a, b, c, b, d, c]
    return np.array(out, dtype=np.uint32)


def scattered_triangles(count, vertices, seed):
    """Triangles of random far-apart vertices: the codec's explicit indices."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, vertices, size=count * 3).astype(np.uint32)


def swift_bytes(data):
    """Base64 as a multi-line Swift string literal, 96 characters a line (decoded ignoring the breaks)."""
    text = base64.b64encode(bytes(data)).decode()
    lines = [text[k : k + 96] for k in range(0, len(text), 96)] or [""]
    return '"""\n' + "".join(f"            {line}\n" for line in lines) + '            """'


def main():
    lines = [
        "// Made by Scripts/make_meshopt_vectors.py with the meshoptimizer library 0.22 (PyPI meshoptimizer",
        "// 0.2.30a0); regenerate with it, never by hand.",
        "",
        "/// Streams the meshoptimizer library encoded, and its filters' outputs, as base64.",
        "enum MeshoptVectors {",
    ]
    lines.append("    /// Attribute streams: (count, stride, stream) of ``MeshoptDecoderTests/attributeBytes(count:stride:)``.")
    lines.append("    static let attributes: [(count: Int, stride: Int, stream: String)] = [")
    for count, stride in [(1, 4), (16, 4), (100, 12), (300, 16), (1000, 64), (257, 256), (3000, 8)]:
        data = attribute_bytes(count, stride)
        stream = mo.encode_vertex_buffer(data.view(np.uint8).reshape(count, stride), count, stride)
        lines.append(f"        ({count}, {stride}, {swift_bytes(stream)}),")
    lines.append("    ]")

    lines.append("    /// Triangle streams: (version, stride, triangles, stream); `triangles` names the input.")
    lines.append("    static let triangles: [(version: Int, stride: Int, input: String, stream: String)] = [")
    inputs = {"grid 8x6": grid_triangles(8, 6), "grid 40x30": grid_triangles(40, 30),
              "scattered 200": scattered_triangles(200, 70000, 1)}
    for version in (0, 1):
        mo.encode_index_version(version)
        for name, tris in inputs.items():
            vertex_count = int(tris.max()) + 1
            for stride in (2, 4):
                if stride == 2 and vertex_count > 65536:
                    continue
                stream = mo.encode_index_buffer(tris, len(tris), vertex_count)
                lines.append(f"        ({version}, {stride}, \"{name}\", {swift_bytes(stream)}),")
    mo.encode_index_version(1)
    lines.append("    ]")
    lines.append("    /// The \"scattered 200\" triangles' indices, 32-bit little-endian.")
    lines.append(f"    static let scattered = {swift_bytes(inputs['scattered 200'].astype('<u4').tobytes())}")

    lines.append("    /// The 9 × 7 vertices of the 8 × 6 grid, (x, y, 0) floats, as one attribute stream.")
    grid = np.array([[x, y, 0] for y in range(7) for x in range(9)], dtype="<f4")
    lines.append(f"    static let gridPositions = {swift_bytes(mo.encode_vertex_buffer(grid, len(grid), 12))}")
    lines.append("    /// Index sequences: (stride, stream) of ``MeshoptDecoderTests/sequence``.")
    seq = np.array([(i // 2) * 3 + (i % 2) * 1000 for i in range(500)] + [5, 70000, 3, 2], dtype=np.uint32)
    lines.append("    static let sequences: [(stride: Int, stream: String)] = [")
    for stride in (4,):
        stream = mo.encode_index_sequence(seq, len(seq), int(seq.max()) + 1)
        lines.append(f"        ({stride}, {swift_bytes(stream)}),")
    lines.append("    ]")

    rng = np.random.default_rng(7)
    lines.append("    /// Filters: (filter, stride, input, the library's output).")
    lines.append("    static let filters: [(filter: String, stride: Int, input: String, output: String)] = [")
    for stride, dtype, bits in [(4, np.int8, 8), (4, np.int8, 6), (8, np.int16, 16), (8, np.int16, 10)]:
        n = 64
        v = rng.normal(size=(n, 3))
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        one = (1 << (bits - 1)) - 1
        x, y, z = v[:, 0], v[:, 1], v[:, 2]
        s = np.abs(x) + np.abs(y) + np.abs(z)
        ox, oy = x / s, y / s
        neg = z < 0
        fx = np.where(neg, (1 - np.abs(oy)) * np.sign(ox + (ox == 0)), ox)
        fy = np.where(neg, (1 - np.abs(ox)) * np.sign(oy + (oy == 0)), oy)
        raw = np.stack([np.round(fx * one), np.round(fy * one), np.full(n, one),
                        rng.integers(-one, one, n)], axis=1).astype(dtype)
        out = mo.decode_filter_oct(raw.copy().view(np.uint8).reshape(-1), n, stride)
        lines.append(f"        (\"OCTAHEDRAL\", {stride}, {swift_bytes(raw.tobytes())}, {swift_bytes(np.asarray(out).tobytes())}),")
    for bits in (16, 12):
        n = 64
        q = rng.normal(size=(n, 4))
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        largest = np.argmax(np.abs(q), axis=1)
        q *= np.where(q[np.arange(n), largest] < 0, -1, 1)[:, None]
        one = (1 << (bits - 1)) - 1
        raw = np.zeros((n, 4), dtype=np.int16)
        for k in range(n):
            m = largest[k]
            rest = [q[k, (m + 1) % 4], q[k, (m + 2) % 4], q[k, (m + 3) % 4]]
            raw[k, :3] = np.round(np.array(rest) * np.sqrt(2) * one)
            raw[k, 3] = (one & ~3) | m
        out = mo.decode_filter_quat(raw.copy().view(np.uint8).reshape(-1), n, 8)
        lines.append(f"        (\"QUATERNION\", 8, {swift_bytes(raw.tobytes())}, {swift_bytes(np.asarray(out).tobytes())}),")
    n = 64
    e = rng.integers(-30, 30, n)
    m = rng.integers(-(1 << 23), (1 << 23) - 1, n)
    raw = ((e.astype(np.int64) << 24) | (m & 0xFFFFFF)).astype(np.uint32)
    out = mo.decode_filter_exp(raw.copy().view(np.uint8).reshape(-1), n // 2, 8)
    lines.append(f"        (\"EXPONENTIAL\", 8, {swift_bytes(raw.tobytes())}, {swift_bytes(np.asarray(out).tobytes())}),")
    lines.append("    ]")
    lines.append("}")
    print("\n".join(lines))


def seed(mode, filter_index, stride, count, stream):
    """A FuzzMeshopt input: mode and filter, stride, count (little-endian), then the stream."""
    if mode == 0:
        stride_byte = stride // 4 - 1
    else:
        stride_byte = 0 if stride == 2 else 1
    return bytes([mode | filter_index << 2, stride_byte, count & 0xFF, count >> 8]) + bytes(stream)


def corpus(directory):
    os.makedirs(directory, exist_ok=True)
    seeds = []
    for count, stride in [(16, 4), (100, 12), (300, 16), (40, 64)]:
        data = attribute_bytes(count, stride)
        seeds.append(seed(0, 0, stride, count, mo.encode_vertex_buffer(data, count, stride)))
    for version in (0, 1):
        mo.encode_index_version(version)
        for tris in (grid_triangles(4, 3), scattered_triangles(20, 3000, 2)):
            for stride in (2, 4):
                seeds.append(seed(1, 0, stride, len(tris), mo.encode_index_buffer(tris, len(tris), int(tris.max()) + 1)))
    mo.encode_index_version(1)
    sequence = np.array([(i // 2) * 3 + (i % 2) * 100 for i in range(60)], dtype=np.uint32)
    seeds.append(seed(2, 0, 4, len(sequence), mo.encode_index_sequence(sequence, len(sequence), 200)))
    for filter_index, stride in [(1, 4), (1, 8), (2, 8), (3, 8)]:
        data = attribute_bytes(32, stride)
        seeds.append(seed(0, filter_index, stride, 32, mo.encode_vertex_buffer(data, 32, stride)))
    for data in seeds:
        with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"{len(seeds)} seeds in {directory}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--corpus":
        corpus(sys.argv[2])
    else:
        main()
