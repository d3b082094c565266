#!/usr/bin/env python3
"""Writes Tests/ARVisModelTests/DracoVectors.swift: meshes Google's Draco encoder compressed (PyPI
DracoPy 2.2.0, Draco 1.5), each with a digest of what Google's decoder makes of it, for
DracoDecoderTests to hold ARVis's decoder to.

    pip install DracoPy==2.2.0 trimesh
    python3 Scripts/make_draco_vectors.py > Tests/ARVisModelTests/DracoVectors.swift
    python3 Scripts/make_draco_vectors.py --corpus Fuzz/Corpus/FuzzDraco   # FuzzDraco's seeds

Each case is one mesh at one setting: sequential connectivity (level 0, or the points' order kept),
edgebreaker's standard traversal (levels 1–4) and its valence traversal (5–10); quantized or lossless
attributes; closed, open, multi-part and non-manifold surfaces. The digest is FNV-1a (64 bits) over
the decoded triangles (three uint32 each), then every attribute's values in the order of their kinds
(position, normal, colour, texture coordinate; those the mesh has) as the decoder gives them: float32 for positions,
normals and texture coordinates, uint8 for colours. The counts are stored beside it."""
import base64
import hashlib
import os
import sys

import DracoPy
import numpy as np
import trimesh


def fnv1a(data, value=0xCBF29CE484222325):
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def grid(width, height, hole=False):
    """A height field of width × height cells, flat along its first row, optionally with a square
    hole in its middle."""
    xs, ys = np.meshgrid(np.arange(width + 1), np.arange(height + 1))
    points = np.column_stack([xs.ravel() * 0.1, np.sin(xs.ravel() * 0.7) * np.sin(ys.ravel() * 0.5) * 0.2, ys.ravel() * 0.1])
    faces = []
    for y in range(height):
        for x in range(width):
            if hole and width // 3 <= x < 2 * width // 3 and height // 3 <= y < 2 * height // 3:
                continue
            a, b, c, d = y * (width + 1) + x, y * (width + 1) + x + 1, (y + 1) * (width + 1) + x, (y + 1) * (width + 1) + x + 1
            faces += [(a, c, b), (b, c, d)]
    return trimesh.Trimesh(points, np.array(faces), process=False)


def non_manifold():
    """Three sheets of a grid meeting at one edge (their first rows, merged), and a lone triangle apart."""
    sheet = grid(4, 3)
    parts = [sheet.copy() for _ in range(3)]
    for k, part in enumerate(parts):
        angle = k * 2 * np.pi / 3
        rotation = trimesh.transformations.rotation_matrix(angle, [1, 0, 0])
        part.apply_transform(rotation)
    lone = trimesh.Trimesh([[2, 2, 2], [2.3, 2, 2], [2, 2.4, 2]], [[0, 1, 2]], process=False)
    joined = trimesh.util.concatenate(parts + [lone])
    joined.merge_vertices()
    return joined


def meshes():
    torus = trimesh.creation.torus(1.0, 0.3, major_sections=24, minor_sections=12)
    two = trimesh.util.concatenate([trimesh.creation.icosphere(1), trimesh.creation.box([1, 2, 3]).apply_translation([3, 0, 0])])
    return {
        "torus": torus,
        "sphere": trimesh.creation.icosphere(3),
        "holed": grid(12, 8, hole=True),
        "parts": two,
        "nonManifold": non_manifold(),
    }


def attributes(mesh):
    points = np.asarray(mesh.vertices, np.float64)
    normals = np.asarray(mesh.vertex_normals, np.float64)
    uv = np.column_stack([points[:, 0] * 0.25 + 0.5, points[:, 2] * 0.25 + 0.5])
    colors = (np.abs(np.sin(points * 3)) * 255).astype(np.uint8)
    return points, np.asarray(mesh.faces, np.uint32), normals, uv, colors


SETTINGS = [
    # (case, mesh, options)
    ("torusSequential", "torus", dict(compression_level=0)),
    ("torusStandard", "torus", dict(compression_level=4)),
    ("torusValence", "torus", dict(compression_level=7)),
    ("torusValenceBest", "torus", dict(compression_level=10)),
    ("torusPositionsOnly", "torus", dict(compression_level=5, only_positions=True)),
    ("torusLossless", "torus", dict(compression_level=7, normal_quantization_bits=None, tex_coord_quantization_bits=None)),
    ("sphereStandard", "sphere", dict(compression_level=3, quantization_bits=11)),
    ("sphereValence", "sphere", dict(compression_level=8, quantization_bits=16)),
    ("holedStandard", "holed", dict(compression_level=2)),
    ("holedValence", "holed", dict(compression_level=9)),
    ("partsStandard", "parts", dict(compression_level=4)),
    ("partsValence", "parts", dict(compression_level=10)),
    ("nonManifoldStandard", "nonManifold", dict(compression_level=1)),
    ("nonManifoldValence", "nonManifold", dict(compression_level=6)),
]


def encode(mesh, options):
    points, faces, normals, uv, colors = attributes(mesh)
    settings = dict(quantization_bits=14, normal_quantization_bits=10, tex_coord_quantization_bits=12)
    settings.update(options)
    if settings.pop("only_positions", False):
        return DracoPy.encode(points, faces, quantization_bits=settings["quantization_bits"], compression_level=settings["compression_level"])
    return DracoPy.encode(points, faces, normals=normals, tex_coord=uv, colors=colors, **settings)


def digest(stream):
    """What Google's decoder makes of `stream`: (triangles, points, digest)."""
    decoded = DracoPy.decode(stream)
    value = fnv1a(np.asarray(decoded.faces, "<u4").tobytes())
    for values, dtype in ((decoded.points, "<f4"), (decoded.normals, "<f4"), (decoded.colors, "u1"), (decoded.tex_coord, "<f4")):
        if values is not None:
            value = fnv1a(np.asarray(values, dtype).tobytes(), value)
    return len(decoded.faces), len(decoded.points), value


def main():
    shapes = meshes()
    lines = [
        "// Made by Scripts/make_draco_vectors.py with Google's Draco encoder and decoder (PyPI DracoPy 2.2.0);",
        "// regenerate with it, never by hand.",
        "",
        "/// Meshes Google's Draco encoder compressed, as base64, and a digest of what Google's decoder makes",
        "/// of each (``DracoDecoderTests/digest(_:)``).",
        "enum DracoVectors {",
        "    static let cases: [(name: String, triangles: Int, points: Int, digest: UInt64, stream: String)] = [",
    ]
    for name, shape, options in SETTINGS:
        stream = encode(shapes[shape], options)
        triangles, points, value = digest(stream)
        text = base64.b64encode(stream).decode()
        body = "\n".join("            " + text[k:k + 96] for k in range(0, len(text), 96))
        grouped = "_".join(f"{value:016X}"[k:k + 4] for k in range(0, 16, 4))
        lines += [f'        (\n            "{name}", {triangles}, {points}, 0x{grouped},', '            """', body, '            """', "        ),"]
    lines += ["    ]", "}"]
    print("\n".join(lines))


def corpus(directory):
    """FuzzDraco's seeds: every case's stream."""
    os.makedirs(directory, exist_ok=True)
    shapes = meshes()
    for name, shape, options in SETTINGS:
        stream = encode(shapes[shape], options)
        with open(os.path.join(directory, hashlib.sha1(stream).hexdigest()), "wb") as handle:
            handle.write(stream)
    print(f"{len(SETTINGS)} seeds in {directory}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--corpus":
        corpus(sys.argv[2])
    else:
        main()
