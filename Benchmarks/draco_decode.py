#!/usr/bin/env python3
"""Google's side of `arvis-bench models`' Draco figure.

Usage: draco_decode.py FOLDER [--triangles N] [--iterations K]

Makes a height-field mesh of about N triangles with normals, compresses it with Google's Draco
encoder (PyPI DracoPy 2.2.0, Draco 1.5) as glTF tools do (14-bit positions, 10-bit normals) at
compression levels 3 (edgebreaker's standard traversal) and 7 (its valence traversal, gltf-pipeline's
default), writes both streams to FOLDER (level3.drc, level7.drc), and times Google's decoder on them:
DracoPy.decode of both, the median of K runs. DracoPy's time includes copying the decoded mesh into
numpy arrays, as ARVis's decoder builds its own arrays. Prints `RESULT draco_google_ms <median> ms`."""
import argparse
import os
import time

import DracoPy
import numpy as np


def height_field(triangles):
    side = max(2, int(round((triangles / 2) ** 0.5)))
    y, x = np.mgrid[0 : side + 1, 0 : side + 1]
    heights = np.sin(x / 9.0) * np.cos(y / 7.0) * 4
    points = np.stack([x.ravel(), heights.ravel(), y.ravel()], axis=1).astype(np.float64)
    a = (np.arange(side)[None, :] + np.arange(side)[:, None] * (side + 1)).ravel()
    faces = np.stack([a, a + side + 1, a + 1, a + 1, a + side + 1, a + side + 2], axis=1).reshape(-1, 3)
    slope_x = 4 / 9 * np.cos(x.ravel() / 9) * np.cos(y.ravel() / 7)
    slope_z = -4 / 7 * np.sin(x.ravel() / 9) * np.sin(y.ravel() / 7)
    normals = np.stack([-slope_x, np.ones_like(slope_x), -slope_z], axis=1)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    return points, faces.astype(np.uint32), normals


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--triangles", type=int, default=1_000_000)
    parser.add_argument("--iterations", type=int, default=15)
    args = parser.parse_args()
    points, faces, normals = height_field(args.triangles)
    os.makedirs(args.folder, exist_ok=True)
    streams = []
    for level in (3, 7):
        stream = DracoPy.encode(points, faces, quantization_bits=14, compression_level=level, normals=normals,
                                normal_quantization_bits=10)
        with open(os.path.join(args.folder, f"level{level}.drc"), "wb") as handle:
            handle.write(stream)
        streams.append(stream)
    times = []
    for _ in range(args.iterations):
        start = time.perf_counter()
        for stream in streams:
            DracoPy.decode(stream)
        times.append(time.perf_counter() - start)
    print(f"{len(faces)} triangles, {len(points)} points; streams " + ", ".join(f"level {l} {len(s)} bytes" for l, s in zip((3, 7), streams)))
    print(f"RESULT draco_google_ms {sorted(times)[len(times) // 2] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
