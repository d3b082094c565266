"""GLB files compressed by other people's encoders, for check_models.py (made by make_model_fixtures.py).

KHR_draco_mesh_compression with Google's Draco encoder (`draco`, below), and
EXT_meshopt_compression with the meshoptimizer library's own encoders (PyPI `meshoptimizer`, the C++
library 0.22), at several settings, each beside the plain GLB of the same mesh (`*.original.glb`) and
a JSON of what a reader must find: the triangle and vertex counts and how far a position may move
(the encoder's quantization step; 0 when lossless). Filters and KHR_mesh_quantization are applied
here as gltfpack applies them; the codecs are the library's."""
import json
import os
import struct

import meshoptimizer as mo
import numpy as np
import trimesh


def glb(document, binary):
    """A GLB of `document` (a dict) and one binary chunk."""
    body = bytes(binary) + b"\0" * (-len(binary) % 4)
    document["buffers"][0]["byteLength"] = len(body)
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(body), b"BIN\0") + body
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


class Builder:
    """Buffer views of a GLB: compressed ones into the binary chunk (buffer 0), with their uncompressed
    length reserved in a fallback buffer without data (buffer 1), or plain ones into the chunk."""

    def __init__(self):
        self.binary = bytearray()
        self.views = []
        self.fallback = 0

    def _append(self, data):
        self.binary += b"\0" * (-len(self.binary) % 4)
        offset = len(self.binary)
        self.binary += data
        return offset

    def plain(self, array, stride=None):
        data = np.ascontiguousarray(array).tobytes()
        view = {"buffer": 0, "byteOffset": self._append(data), "byteLength": len(data)}
        if stride:
            view["byteStride"] = stride
        self.views.append(view)
        return len(self.views) - 1

    def compressed(self, array, mode, stride, count, filter=None, target=None):
        raw = np.ascontiguousarray(array)
        if mode == "ATTRIBUTES":
            stream = mo.encode_vertex_buffer(raw.view(np.uint8).reshape(count, stride), count, stride)
        elif mode == "TRIANGLES":
            stream = mo.encode_index_buffer(raw.astype(np.uint32), count, int(raw.max()) + 1)
        else:
            stream = mo.encode_index_sequence(raw.astype(np.uint32), count, int(raw.max()) + 1)
        extension = {"buffer": 0, "byteOffset": self._append(bytes(stream)), "byteLength": len(stream),
                     "byteStride": stride, "count": count, "mode": mode}
        if filter:
            extension["filter"] = filter
        self.fallback += -self.fallback % 4
        view = {"buffer": 1, "byteOffset": self.fallback, "byteLength": stride * count,
                "extensions": {"EXT_meshopt_compression": extension}}
        self.fallback += stride * count
        if mode == "ATTRIBUTES":
            view["byteStride"] = stride
        if target:
            view["target"] = target
        self.views.append(view)
        return len(self.views) - 1

    def document(self, attributes, indices, accessors, extensions, mode=4, node=None):
        node = node or {}
        node["mesh"] = 0
        primitive = {"attributes": attributes, "mode": mode}
        if indices is not None:
            primitive["indices"] = indices
        return {
            "asset": {"version": "2.0", "generator": "ARVis fixtures (meshoptimizer 0.22)"},
            "extensionsUsed": extensions, "extensionsRequired": extensions,
            "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [node],
            "meshes": [{"primitives": [primitive]}],
            "buffers": [{"byteLength": 0}, {"byteLength": max(4, self.fallback),
                                            "extensions": {"EXT_meshopt_compression": {"fallback": True}}}],
            "bufferViews": self.views, "accessors": accessors,
        }


def accessor(view, component, count, kind, normalized=False, bounds=None):
    result = {"bufferView": view, "componentType": component, "count": count, "type": kind}
    if normalized:
        result["normalized"] = True
    if bounds is not None:
        result["min"], result["max"] = [float(v) for v in bounds[0]], [float(v) for v in bounds[1]]
    return result


def octahedral(normals, bits):
    """meshopt's octahedral filter input: x, y over a K-bit 1.0, and 0."""
    one = (1 << (bits - 1)) - 1
    n = normals / np.abs(normals).sum(axis=1, keepdims=True)
    sign = lambda v: np.where(v >= 0, 1.0, -1.0)
    x = np.where(n[:, 2] >= 0, n[:, 0], (1 - np.abs(n[:, 1])) * sign(n[:, 0]))
    y = np.where(n[:, 2] >= 0, n[:, 1], (1 - np.abs(n[:, 0])) * sign(n[:, 1]))
    return np.stack([np.round(x * one), np.round(y * one), np.full(len(n), one), np.zeros(len(n))], axis=1)


def exponential(values, bits):
    """meshopt's exponential filter input: each float as a signed 8-bit exponent over a `bits`-bit mantissa."""
    mantissa, exponent = np.frexp(values.astype(np.float64))
    e = np.clip(np.where(values == 0, 0, exponent - (bits - 1)), -100, 100).astype(np.int64)
    m = np.round(values / np.exp2(e)).astype(np.int64)
    step = float(np.exp2(e[values != 0]).max()) if (values != 0).any() else 0.0
    return ((e & 0xFF) << 24 | (m & 0xFFFFFF)).astype(np.uint32), step


def draco(folder, mesh):
    """KHR_draco_mesh_compression with Google's Draco encoder (PyPI DracoPy 2.2.0): sequential
    connectivity, edgebreaker's standard and valence traversals; 14-bit positions, 10-bit normals.
    Draco orders points and triangles its own way, so each file's original is what Google's decoder
    makes of the same stream (the exact floats a reader must find: step 0), written plain."""
    import DracoPy

    made = {}
    points, faces, normals = mesh.vertices, mesh.faces.astype(np.uint32), mesh.vertex_normals
    for name, level in (("draco-sequential.glb", 0), ("draco-standard.glb", 3), ("draco-valence.glb", 7)):
        stream = DracoPy.encode(points, faces, quantization_bits=14, compression_level=level, normals=normals,
                                normal_quantization_bits=10)
        decoded = DracoPy.decode(stream)
        positions = np.asarray(decoded.points, np.float32)
        count, vertices = len(decoded.faces), len(positions)
        b = Builder()
        b.views.append({"buffer": 0, "byteOffset": b._append(stream), "byteLength": len(stream)})
        document = {
            "asset": {"version": "2.0", "generator": "ARVis fixtures (Draco 1.5, DracoPy 2.2.0)"},
            "extensionsUsed": ["KHR_draco_mesh_compression"], "extensionsRequired": ["KHR_draco_mesh_compression"],
            "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
            "meshes": [{"primitives": [{
                "attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "mode": 4,
                # DracoPy gives normals the unique id 0 and positions 1.
                "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 1, "NORMAL": 0}}}}]}],
            "buffers": [{"byteLength": 0}], "bufferViews": b.views,
            "accessors": [
                {"componentType": 5126, "count": vertices, "type": "VEC3",
                 "min": [float(v) for v in positions.min(axis=0)], "max": [float(v) for v in positions.max(axis=0)]},
                {"componentType": 5126, "count": vertices, "type": "VEC3"},
                {"componentType": 5125, "count": count * 3, "type": "SCALAR"}],
        }
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(glb(document, b.binary))
        original = name.replace(".glb", ".original.glb")
        trimesh.Trimesh(vertices=positions, faces=np.asarray(decoded.faces).reshape(-1, 3),
                        vertex_normals=np.asarray(decoded.normals, np.float32), process=False).export(os.path.join(folder, original))
        # And against the mesh given to the encoder (meshopt.original.glb holds the same vertices, in
        # another order): every point within the quantization step of its nearest source vertex.
        step = float(np.ptp(points, axis=0).max()) / ((1 << 14) - 1)
        made[name] = {"triangles": int(count), "vertices": int(vertices), "step": 0.0, "original": original,
                      "source": "meshopt.original.glb", "sourceStep": step}
    return made


def make(folder):
    """Writes the meshopt fixtures into `folder`; returns their names."""
    sphere = trimesh.creation.uv_sphere(radius=0.5, count=[96, 192])
    positions = sphere.vertices.astype(np.float32)
    normals = sphere.vertex_normals.astype(np.float32)
    triangles = sphere.faces.astype(np.uint32).reshape(-1)
    cache = np.zeros_like(triangles)
    mo.optimize_vertex_cache(cache, triangles, len(triangles), len(positions))
    # Vertices in first-use order, as gltfpack leaves them.
    seen = {}
    for index in cache:
        seen.setdefault(int(index), len(seen))
    order = np.array(sorted(seen, key=seen.get), dtype=np.uint32)
    remap = np.empty(len(positions), dtype=np.uint32)
    remap[order] = np.arange(len(order), dtype=np.uint32)
    positions, normals, triangles = positions[order], normals[order], remap[cache]
    count, vertices = len(triangles) // 3, len(positions)
    bounds = (positions.min(axis=0), positions.max(axis=0))
    made = {}

    def save(name, document, builder, step):
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(glb(document, builder.binary))
        made[name] = {"triangles": int(count), "vertices": int(vertices), "step": step,
                      "original": "meshopt.original.glb"}

    # Lossless: float positions and normals, 32-bit triangles.
    b = Builder()
    p = b.compressed(positions, "ATTRIBUTES", 12, vertices, target=34962)
    n = b.compressed(normals, "ATTRIBUTES", 12, vertices, target=34962)
    t = b.compressed(triangles, "TRIANGLES", 4, len(triangles), target=34963)
    save("meshopt-float.glb", b.document(
        {"POSITION": 0, "NORMAL": 1}, 2,
        [accessor(p, 5126, vertices, "VEC3", bounds=bounds), accessor(n, 5126, vertices, "VEC3"),
         accessor(t, 5125, len(triangles), "SCALAR")], ["EXT_meshopt_compression"]), b, 0.0)

    # gltfpack's defaults: 14-bit positions as shorts scaled by the node, 8-bit octahedral normals,
    # 16-bit triangles (KHR_mesh_quantization).
    scale = float((bounds[1] - bounds[0]).max())
    quantized = np.round((positions - bounds[0]) / scale * ((1 << 14) - 1)).astype(np.uint16)
    padded = np.concatenate([quantized, np.zeros((vertices, 1), dtype=np.uint16)], axis=1)
    b = Builder()
    p = b.compressed(padded, "ATTRIBUTES", 8, vertices, target=34962)
    n = b.compressed(octahedral(normals, 8).astype(np.int8), "ATTRIBUTES", 4, vertices, "OCTAHEDRAL", 34962)
    t = b.compressed(triangles.astype(np.uint16), "TRIANGLES", 2, len(triangles), target=34963)
    node = {"translation": [float(v) for v in bounds[0]], "scale": [scale / ((1 << 14) - 1)] * 3}
    save("meshopt-quantized.glb", b.document(
        {"POSITION": 0, "NORMAL": 1}, 2,
        [accessor(p, 5123, vertices, "VEC3", bounds=(quantized.min(axis=0), quantized.max(axis=0))),
         accessor(n, 5120, vertices, "VEC3", normalized=True), accessor(t, 5123, len(triangles), "SCALAR")],
        ["EXT_meshopt_compression", "KHR_mesh_quantization"], node=node), b, scale / ((1 << 14) - 1))

    # Exponential positions (12-bit mantissas) and 16-bit octahedral normals; indices as a sequence.
    encoded, step = exponential(positions.reshape(-1), 12)
    b = Builder()
    p = b.compressed(encoded.reshape(vertices, 3), "ATTRIBUTES", 12, vertices, "EXPONENTIAL", 34962)
    n = b.compressed(octahedral(normals, 16).astype(np.int16), "ATTRIBUTES", 8, vertices, "OCTAHEDRAL", 34962)
    t = b.compressed(triangles, "INDICES", 4, len(triangles), target=34963)
    save("meshopt-exponential.glb", b.document(
        {"POSITION": 0, "NORMAL": 1}, 2,
        [accessor(p, 5126, vertices, "VEC3", bounds=bounds), accessor(n, 5122, vertices, "VEC3", normalized=True),
         accessor(t, 5125, len(triangles), "SCALAR")],
        ["EXT_meshopt_compression"]), b, step)

    # The uncompressed original, for f3d and trimesh.
    original = trimesh.Trimesh(vertices=positions, faces=triangles.reshape(-1, 3), vertex_normals=normals, process=False)
    original.export(os.path.join(folder, "meshopt.original.glb"))
    made.update(draco(folder, sphere))
    with open(os.path.join(folder, "compressed.json"), "w") as handle:
        json.dump(made, handle, indent=1)
    return sorted(made)
