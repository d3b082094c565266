"""Independent check of `arvis scene` output with pygltflib and trimesh: the GLB and glTF load
without errors or warnings, every node's matrix equals the scene JSON's transform (times the quad's
size for quads), and every embedded texture is a PNG or JPEG.

Usage: python3 Scripts/check_scene.py SCENE.json SCENE.glb SCENE.gltf
Needs pygltflib and trimesh (pip install pygltflib trimesh).
"""
import json
import logging
import sys

import numpy as np
import pygltflib
import trimesh


def check(scene_json, path):
    gltf = pygltflib.GLTF2().load(path)
    nodes = {node["id"]: node for node in scene_json["nodes"]}
    assert len(gltf.nodes) == len(nodes), f"{len(gltf.nodes)} glTF nodes, {len(nodes)} scene nodes"
    for node in gltf.nodes:
        expected = np.array(nodes[node.name]["transform"], dtype=float).reshape(4, 4)
        size = nodes[node.name].get("size")
        if node.mesh is not None and size:
            expected[0, :3] *= size[0]
            expected[1, :3] *= size[1]
        assert np.allclose(np.array(node.matrix, dtype=float).reshape(4, 4), expected, atol=1e-6), f"{node.name}: matrix differs"
    blob = gltf.binary_blob() if path.endswith(".glb") else None
    for image in gltf.images:
        if blob is not None:
            view = gltf.bufferViews[image.bufferView]
            data = blob[view.byteOffset:view.byteOffset + view.byteLength]
            assert data[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"\xff\xd8\xff\xe1", b"\xff\xd8\xff\xdb"), "texture is not PNG or JPEG"
    warnings = []

    class Collector(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    logging.getLogger("trimesh").addHandler(Collector())
    loaded = trimesh.load(path, force="scene")
    assert not warnings, f"trimesh warned: {warnings}"
    return len(gltf.nodes), len(gltf.images), len(loaded.geometry)


def main():
    scene_json = json.load(open(sys.argv[1]))
    for path in sys.argv[2:]:
        nodes, images, geometry = check(scene_json, path)
        print(f"scene check: {path}: {nodes} nodes, {images} textures, {geometry} meshes: passed")


if __name__ == "__main__":
    main()
