"""Independent check of `arvis scene` output with pygltflib and trimesh: the GLB and glTF load
without errors or warnings, every node's matrix equals the scene JSON's transform (times the quad's
size for quads), and every embedded texture is a PNG or JPEG.

Usage: python3 Scripts/check_scene.py SCENE.json SCENE.glb SCENE.gltf
Needs pygltflib and trimesh (Scripts/requirements.txt). Prints one line per check and ends with
`N passed, N failed`.
"""
import json
import logging
import os
import sys

import numpy as np
import pygltflib
import trimesh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402

check = Checks()


def check_file(scene_json, path):
    gltf = pygltflib.GLTF2().load(path)
    nodes = {node["id"]: node for node in scene_json["nodes"]}
    check(f"{path}: as many nodes as the scene JSON ({len(nodes)})", len(gltf.nodes) == len(nodes),
          f"{len(gltf.nodes)} glTF nodes, {len(nodes)} scene nodes")
    differ = []
    for node in gltf.nodes:
        expected = np.array(nodes[node.name]["transform"], dtype=float).reshape(4, 4)
        size = nodes[node.name].get("size")
        if node.mesh is not None and size:
            expected[0, :3] *= size[0]
            expected[1, :3] *= size[1]
        if not np.allclose(np.array(node.matrix, dtype=float).reshape(4, 4), expected, atol=1e-6):
            differ.append(node.name)
    check(f"{path}: every node's matrix is the scene JSON's transform", not differ, f"{', '.join(differ)}: matrix differs")
    if path.endswith(".glb"):
        blob = gltf.binary_blob()
        not_pictures = []
        for index, image in enumerate(gltf.images):
            view = gltf.bufferViews[image.bufferView]
            data = blob[view.byteOffset:view.byteOffset + view.byteLength]
            if data[:4] not in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"\xff\xd8\xff\xe1", b"\xff\xd8\xff\xdb"):
                not_pictures.append(f"image {index}")
        check(f"{path}: every texture ({len(gltf.images)}) is PNG or JPEG", not not_pictures, f"{', '.join(not_pictures)}: not PNG or JPEG")
    warnings = []

    class Collector(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    logging.getLogger("trimesh").addHandler(Collector())
    loaded = trimesh.load(path, force="scene")
    check(f"{path}: trimesh loads {len(loaded.geometry)} meshes without a warning", not warnings, f"trimesh warned: {warnings}")


def main():
    scene_json = json.load(open(sys.argv[1]))
    for path in sys.argv[2:]:
        check_file(scene_json, path)
    check.finish()


if __name__ == "__main__":
    main()
