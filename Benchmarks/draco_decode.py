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
from height_field import grid, normals


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--triangles", type=int, default=1_000_000)
    parser.add_argument("--iterations", type=int, default=15)
    args = parser.parse_args()
    positions, flat = grid(args.triangles)
    points, faces = positions.astype(np.float64), flat.reshape(-1, 3)
    os.makedirs(args.folder, exist_ok=True)
    streams = []
    for level in (3, 7):
        stream = DracoPy.encode(points, faces, quantization_bits=14, compression_level=level, normals=normals(points),
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
