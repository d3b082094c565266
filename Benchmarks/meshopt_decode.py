#!/usr/bin/env python3
"""The meshoptimizer library's side of `arvis-bench models`' meshopt figure.

Usage: meshopt_decode.py FOLDER [--triangles N] [--iterations K]

Makes a mesh of about N triangles (a grid of cells, vertices and triangles in the order the library's
own vertex cache and fetch optimisers leave them), encodes it as gltfpack does by default (positions
as four 16-bit integers, normals as four 8-bit octahedral components, 32-bit triangles) with the
library's encoders, writes the three streams to FOLDER with their counts (streams.json), and times
the library's decoders on them: the vertex codec, the octahedral filter and the index codec, the
median of K runs. Needs `pip install --pre meshoptimizer==0.2.30a0` (the C++ library 0.22).
Prints `RESULT meshopt_library_ms <median> ms`."""
import argparse
import ctypes
import json
import os
import time

import meshoptimizer as mo
import numpy as np
from meshoptimizer._loader import lib
from height_field import grid


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--triangles", type=int, default=1_000_000)
    parser.add_argument("--iterations", type=int, default=15)
    args = parser.parse_args()
    positions, faces = grid(args.triangles)
    optimized = np.zeros_like(faces)
    mo.optimize_vertex_cache(optimized, faces, len(faces), len(positions))
    fetched = np.zeros_like(positions)
    vertices = mo.optimize_vertex_fetch(fetched, optimized, positions, len(optimized), len(positions), 12)
    positions = fetched[:vertices]
    quantized = np.zeros((vertices, 4), dtype=np.uint16)
    low, high = positions.min(axis=0), positions.max(axis=0)
    quantized[:, :3] = np.round((positions - low) / (high - low).max() * 16383)
    # The height field's normals, z up in octahedral terms (y and z swapped), 8-bit.
    x, z = positions[:, 0].astype(np.float64), positions[:, 2].astype(np.float64)
    slope_x = 4 / 9 * np.cos(x / 9) * np.cos(z / 7)
    slope_z = -4 / 7 * np.sin(x / 9) * np.sin(z / 7)
    n = np.stack([-slope_x, -slope_z, np.ones_like(x)], axis=1)
    n /= np.abs(n).sum(axis=1, keepdims=True)
    normals = np.zeros((vertices, 4), dtype=np.int8)
    normals[:, 0], normals[:, 1], normals[:, 2] = np.round(n[:, 0] * 127), np.round(n[:, 1] * 127), 127
    streams = {
        "positions": (mo.encode_vertex_buffer(quantized, vertices, 8), vertices, 8, "ATTRIBUTES", "NONE"),
        "normals": (mo.encode_vertex_buffer(normals, vertices, 4), vertices, 4, "ATTRIBUTES", "OCTAHEDRAL"),
        "triangles": (mo.encode_index_buffer(optimized, len(optimized), vertices), len(optimized), 4, "TRIANGLES", "NONE"),
    }
    os.makedirs(args.folder, exist_ok=True)
    description = {}
    for name, (stream, count, stride, mode, filter_) in streams.items():
        with open(os.path.join(args.folder, name + ".bin"), "wb") as handle:
            handle.write(bytes(stream))
        description[name] = {"count": count, "stride": stride, "mode": mode, "filter": filter_}
    with open(os.path.join(args.folder, "streams.json"), "w") as handle:
        json.dump(description, handle)

    # The library's C functions themselves (through the package's ctypes handle), each into a new
    # zeroed array as ARVis's decoder allocates one: no Python-side copies are timed.
    inputs = {name: np.frombuffer(bytes(v[0]), dtype=np.uint8) for name, v in streams.items()}

    def call(function, output, *arguments):
        result = function(output.ctypes.data_as(ctypes.c_void_p), *arguments)
        if result not in (0, None):
            raise RuntimeError(f"{function.__name__} failed: {result}")

    def stream(name):
        return inputs[name].ctypes.data_as(ctypes.POINTER(ctypes.c_ubyte)), len(inputs[name])

    def decode():
        call(lib.meshopt_decodeVertexBuffer, np.zeros(vertices * 8, np.uint8), vertices, 8, *stream("positions"))
        normal_bytes = np.zeros(vertices * 4, np.uint8)
        call(lib.meshopt_decodeVertexBuffer, normal_bytes, vertices, 4, *stream("normals"))
        lib.meshopt_decodeFilterOct(normal_bytes.ctypes.data_as(ctypes.c_void_p), vertices, 4)
        call(lib.meshopt_decodeIndexBuffer, np.zeros(len(optimized) * 4, np.uint8), len(optimized), 4,
             *stream("triangles"))


    times = []
    for _ in range(args.iterations):
        start = time.perf_counter()
        decode()
        times.append(time.perf_counter() - start)
    print(f"{len(optimized) // 3} triangles, {vertices} vertices; streams "
          + ", ".join(f"{k} {len(v[0])} bytes" for k, v in streams.items()))
    print(f"RESULT meshopt_library_ms {sorted(times)[len(times) // 2] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
