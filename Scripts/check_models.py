#!/usr/bin/env python3
"""Independent checks of ARVis's 3D model code, run by .ci/run.

Usage: check_models.py ARVIS FIXTURES WORK

For every fixture made by make_model_fixtures.py:
- GLB → USDZ with `arvis convert`: usd-core 26.3's ARKit ComplianceChecker reports no error, failed
  check or warning; usd-core reads back the same world-space points (compared with trimesh's reading
  of the GLB), the same transforms and the same materials (texture bytes and factors).
- USD (usdz, usdc, usda) → GLB: trimesh reads world-space bounds equal to usd-core's, converted to
  metres with +Y up; the USDZ written back passes the ARKit checks.
- Thumbnails: `arvis thumbnail` and f3d (VTK, headless EGL) framed by the same documented camera;
  the silhouettes agree (IoU >= 0.97).
- Damaged files: every fixture truncated and corrupted gives a one-line error and exit 1 or 2,
  never a crash or a hang.
- Compressed files (compressed_fixtures.py, the encoders' own libraries): each reads with the exact
  triangle and vertex counts, its positions within the encoder's quantization step of the original's
  and its triangles the original's (a Draco file's original is what Google's decoder makes of its
  stream: the same floats, step 0); it converts to a USDZ the ARKit checks pass, and its thumbnail's
  silhouette matches f3d's of the uncompressed original.
- Tree models (`arvis species --model`): every catalog species side by side as USDZ passes the ARKit
  checks, and usd-core reads the same world-space points from it as trimesh from the GLB; each tree is
  as tall as the mean of its catalog heights (`arvis species --format json`).
Prints 'N passed, N failed'.
"""
import io
import json
import math
import os
import subprocess
import sys
import zipfile

import numpy as np
import trimesh
from scipy.spatial import cKDTree
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402
from pxr import Gf, Usd, UsdGeom, UsdShade, UsdUtils

ARVIS, FIXTURES, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
os.makedirs(WORK, exist_ok=True)
check = Checks()


def arvis(*args, timeout=120):
    return subprocess.run([ARVIS, *args], capture_output=True, text=True, timeout=timeout)


def compliance(path):
    checker = UsdUtils.ComplianceChecker(arkit=True)
    checker.CheckCompliance(path)
    return checker.GetErrors() + checker.GetFailedChecks() + checker.GetWarnings()


def usd_world_points(path):
    """Every mesh point in metres, +Y up, as usd-core computes it."""
    stage = Usd.Stage.Open(path)
    scale = UsdGeom.GetStageMetersPerUnit(stage)
    z_up = UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.z
    cache = UsdGeom.XformCache()
    result = []
    for prim in stage.Traverse():
        if not prim.IsA(UsdGeom.Mesh):
            continue
        matrix = cache.GetLocalToWorldTransform(prim)
        for p in UsdGeom.Mesh(prim).GetPointsAttr().Get():
            q = matrix.Transform(Gf.Vec3d(p))
            result.append((q[0], q[2], -q[1]) if z_up else (q[0], q[1], q[2]))
    return np.array(result) * scale


def gltf_world_points(path):
    scene = trimesh.load(path, force="scene")
    points = []
    for node in scene.graph.nodes_geometry:
        transform, geometry = scene.graph[node]
        points.append(trimesh.transform_points(scene.geometry[geometry].vertices, transform))
    return np.concatenate(points)


def same_point_sets(a, b, tolerance=1e-4):
    if len(a) == 0 or len(b) == 0:
        return False
    ua = np.unique(np.round(a / tolerance).astype(np.int64), axis=0)
    ub = np.unique(np.round(b / tolerance).astype(np.int64), axis=0)
    if len(ua) != len(ub):
        return False
    return np.abs(np.sort(a, axis=0)[[0, -1]] - np.sort(b, axis=0)[[0, -1]]).max() < tolerance * 10


def glb_to_usdz(name):
    source = os.path.join(FIXTURES, name)
    target = os.path.join(WORK, name.replace(".glb", ".usdz"))
    result = arvis("convert", "--to", "usdz", source, "-o", target, "-q")
    check(f"{name} → usdz exits 0", result.returncode == 0, result.stderr)
    if result.returncode != 0:
        return
    issues = compliance(target)
    check(f"{name} → usdz passes the ARKit checks", not issues, issues)
    expected = gltf_world_points(source)
    got = usd_world_points(target)
    check(f"{name} → usdz keeps every world-space point", same_point_sets(expected, got), f"{len(expected)} vs {len(got)}")
    # Materials: the glTF's base colour textures and factors reach the UsdPreviewSurface.
    with open(source, "rb") as handle:
        gltf = trimesh.load(handle, file_type="glb", force="scene")
    stage = Usd.Stage.Open(target)
    surfaces = []
    for prim in stage.Traverse():
        if prim.IsA(UsdShade.Shader) and UsdShade.Shader(prim).GetIdAttr().Get() == "UsdPreviewSurface":
            surfaces.append(UsdShade.Shader(prim))
    materials = [g.visual.material for g in gltf.geometry.values() if hasattr(g.visual, "material")]
    check(f"{name} → usdz has one surface per material", len(surfaces) == len({id(m) for m in materials}), f"{len(surfaces)} surfaces")
    package = zipfile.ZipFile(target)
    for material in materials:
        texture = getattr(material, "baseColorTexture", None)
        if texture is None:
            factor = np.array(material.baseColorFactor[:3], dtype=float) / 255.0
            colors = [np.array(s.GetInput("diffuseColor").Get()) for s in surfaces if s.GetInput("diffuseColor").Get() is not None]
            check(f"{name} → usdz keeps the base colour {np.round(factor, 3)}", any(np.abs(c - factor).max() < 2e-3 for c in colors), colors)
        else:
            stored = [package.read(n) for n in package.namelist() if n.endswith(".png")]
            pixels = [np.array(Image.open(io.BytesIO(b)).convert("RGB")) for b in stored]
            check(f"{name} → usdz carries the texture", any(p.shape == np.array(texture.convert("RGB")).shape and (p == np.array(texture.convert("RGB"))).all() for p in pixels))


def usd_to_glb(name):
    source = os.path.join(FIXTURES, name)
    target = os.path.join(WORK, name.replace(".", "_") + ".glb")
    result = arvis("convert", "--to", "glb", source, "-o", target, "-q")
    check(f"{name} → glb exits 0", result.returncode == 0, result.stderr)
    if result.returncode != 0:
        return
    expected = usd_world_points(source)
    got = gltf_world_points(target)
    low, high = got.min(axis=0), got.max(axis=0)
    check(f"{name} → glb has usd-core's bounds in metres, Y up", np.abs(low - expected.min(axis=0)).max() < 1e-4 and np.abs(high - expected.max(axis=0)).max() < 1e-4,
          f"{low} {high} vs {expected.min(axis=0)} {expected.max(axis=0)}")
    back = os.path.join(WORK, name.replace(".", "_") + ".usdz")
    result = arvis("convert", "--to", "usdz", target, "-o", back, "-q")
    issues = compliance(back) if result.returncode == 0 else [result.stderr]
    check(f"{name} → glb → usdz passes the ARKit checks", not issues, issues)
    check(f"{name} → glb → usdz keeps the points", result.returncode == 0 and same_point_sets(usd_world_points(back), expected))


def camera(bounds):
    """ThumbnailCamera's documented framing."""
    low, high = np.array(bounds[0]), np.array(bounds[1])
    center, radius = (low + high) / 2, np.linalg.norm(high - low) / 2
    a, e = math.radians(30), math.radians(20)
    direction = np.array([math.sin(a) * math.cos(e), math.sin(e), math.cos(a) * math.cos(e)])
    distance = 1.05 * radius / math.sin(math.radians(15))
    return center + distance * direction, center


def f3d_mask(glb, bounds, size):
    import f3d
    f3d.Log.set_verbose_level(f3d.Log.VerboseLevel.WARN)
    engine = f3d.Engine.create_egl()
    engine.options.update({"render.grid.enable": False, "ui.axis": False, "render.background.color": [0.0, 0.0, 0.0]})
    engine.window.size = (size, size)
    engine.scene.add(glb)
    eye, target = camera(bounds)
    cam = engine.window.camera
    cam.position, cam.focal_point, cam.view_up, cam.view_angle = tuple(eye), tuple(target), (0.0, 1.0, 0.0), 30.0
    frames = []
    for color in ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]):
        engine.options["render.background.color"] = color
        image = engine.window.render_to_image(False)
        frames.append(np.frombuffer(bytes(image.content), dtype=np.uint8).reshape(image.height, image.width, image.channel_count)[::-1, :, :3].astype(int))
    return np.abs(frames[0] - frames[1]).max(axis=2) < 8


def thumbnail(name, reference=None):
    """Our thumbnail of `name` against f3d's of `reference` (the same file, or its uncompressed original)."""
    source = os.path.join(FIXTURES, name) if name.endswith(".glb") else os.path.join(WORK, name.replace(".", "_") + ".glb")
    if not os.path.exists(source):
        return check(f"{name} thumbnail", False, "no GLB to render")
    size = 256
    png = os.path.join(WORK, name + ".png")
    result = arvis("thumbnail", source, "--size", str(size), "-o", png, "-q")
    check(f"{name} thumbnail exits 0", result.returncode == 0, result.stderr)
    if result.returncode != 0:
        return
    ours = np.array(Image.open(png).convert("RGBA"))[:, :, 3] > 127
    report = json.loads(arvis("inspect", "--format", "json", source).stdout)
    theirs = f3d_mask(os.path.join(FIXTURES, reference) if reference else source,
                      (report["bounds"]["min"], report["bounds"]["max"]), size)
    Image.fromarray((np.stack([ours, theirs, ours & theirs], axis=2) * 255).astype(np.uint8)).save(os.path.join(WORK, name + ".compare.png"))
    iou = (ours & theirs).sum() / max(1, (ours | theirs).sum())
    check(f"{name} thumbnail silhouette matches f3d (IoU {iou:.4f} >= 0.97)", iou >= 0.97)


def damaged(name):
    with open(os.path.join(FIXTURES, name), "rb") as handle:
        data = handle.read()
    rng = np.random.default_rng(7)
    corrupt = bytearray(data)
    for at in rng.integers(len(data) // 4, len(data), size=max(4, len(data) // 50)):
        corrupt[at] ^= 0xFF
    extension = os.path.splitext(name)[1]
    for kind, body in (("truncated", data[: len(data) // 2]), ("corrupt", bytes(corrupt))):
        path = os.path.join(WORK, f"{kind}-{name}")
        with open(path, "wb") as handle:
            handle.write(body)
        try:
            result = arvis("inspect", path, timeout=60)
        except subprocess.TimeoutExpired:
            check(f"{kind} {name} is refused in time", False, "hung")
            continue
        crashed = result.returncode < 0 or result.returncode > 2
        ok = not crashed and (result.returncode in (1, 2) and "error:" in result.stderr or kind == "corrupt" and result.returncode == 0)
        check(f"{kind} {name}: a clear error, no crash (exit {result.returncode})", ok, result.stderr[-300:])


def canonical_triangles(faces):
    """Each triangle turned to start at its smallest index (an encoder may rotate one), in order."""
    faces = np.asarray(faces).reshape(-1, 3)
    turn = np.argmin(faces, axis=1)
    return np.stack([faces[np.arange(len(faces)), (turn + k) % 3] for k in range(3)], axis=1)


def compressed(name, expected):
    source = os.path.join(FIXTURES, name)
    result = arvis("inspect", "--format", "json", source)
    check(f"{name} reads (exit {result.returncode})", result.returncode == 0, result.stderr[-300:])
    if result.returncode != 0:
        return
    report = json.loads(result.stdout)
    check(f"{name}: {expected['triangles']} triangles and {expected['vertices']} vertices",
          (report["triangles"], report["vertices"]) == (expected["triangles"], expected["vertices"]),
          f"{report['triangles']} triangles, {report['vertices']} vertices")
    plain = os.path.join(WORK, name.replace(".glb", ".plain.glb"))
    result = arvis("convert", "--to", "glb", source, "-o", plain, "-q")
    check(f"{name} → glb exits 0", result.returncode == 0, result.stderr)
    if result.returncode == 0:
        ours = trimesh.load(plain, force="mesh", process=False)
        original = trimesh.load(os.path.join(FIXTURES, expected["original"]), force="mesh", process=False)
        same_shape = ours.vertices.shape == original.vertices.shape
        error = float(np.abs(ours.vertices - original.vertices).max()) if same_shape else math.inf
        check(f"{name}: every position within the encoder's step {expected['step']:.3g} of the original's "
              f"(largest difference {error:.3g})", error <= expected["step"] + 1e-6)
        check(f"{name}: the original's triangles, in order",
              ours.faces.shape == original.faces.shape
              and (canonical_triangles(ours.faces) == canonical_triangles(original.faces)).all())
        if "source" in expected:
            given = trimesh.load(os.path.join(FIXTURES, expected["source"]), force="mesh", process=False)
            distance, _ = cKDTree(given.vertices).query(ours.vertices)
            check(f"{name}: every position within the encoder's step {expected['sourceStep']:.3g} of the mesh it was given "
                  f"(largest distance to the nearest vertex {distance.max():.3g})", distance.max() <= expected["sourceStep"])
    usdz = os.path.join(WORK, name.replace(".glb", ".usdz"))
    result = arvis("convert", "--to", "usdz", source, "-o", usdz, "-q")
    check(f"{name} → usdz exits 0", result.returncode == 0, result.stderr)
    if result.returncode == 0:
        issues = compliance(usdz)
        check(f"{name} → usdz passes the ARKit checks", not issues, issues)
    thumbnail(name, reference=expected["original"])


def tree_models():
    glb, usdz = os.path.join(WORK, "trees.glb"), os.path.join(WORK, "trees.usdz")
    results = [arvis("species", "--model", path) for path in (glb, usdz)]
    check("arvis species --model writes GLB and USDZ", all(r.returncode == 0 for r in results),
          " ".join(r.stderr for r in results))
    if any(r.returncode != 0 for r in results):
        return
    issues = compliance(usdz)
    check("the species' models as USDZ pass the ARKit checks", not issues, issues)
    expected, got = gltf_world_points(glb), usd_world_points(usdz)
    check("usd-core and trimesh read the same tree models", same_point_sets(expected, got), f"{len(expected)} vs {len(got)}")
    catalog = json.loads(arvis("species", "--format", "json").stdout)
    scene = trimesh.load(glb, force="scene")
    tops = sorted(round(float(scene.geometry[g].vertices[:, 1].max()), 3) for _, g in
                  (scene.graph[n] for n in scene.graph.nodes_geometry))
    heights = sorted(round((s["minimumHeight"] + s["maximumHeight"]) / 2, 3) for s in catalog)
    # Each tree's crown reaches its height (its trunk's top is lower, so tops hold more values).
    check("each species' model is as tall as its catalog heights say", set(heights) <= set(tops),
          f"{sorted(set(heights) - set(tops))} not reached")


tree_models()
for fixture in ("cube.glb", "sphere.glb", "hierarchy.glb"):
    glb_to_usdz(fixture)
for fixture in ("zup_cm.usdz", "yup_text.usdz", "plain.usda", "plain.usdc"):
    usd_to_glb(fixture)
for fixture in ("cube.glb", "sphere.glb", "hierarchy.glb", "zup_cm.usdz", "yup_text.usdz"):
    thumbnail(fixture)
with open(os.path.join(FIXTURES, "compressed.json")) as handle:
    for fixture, expected in json.load(handle).items():
        compressed(fixture, expected)
for fixture in ("cube.glb", "sphere.glb", "zup_cm.usdz", "yup_text.usdz", "plain.usda", "plain.usdc", "meshopt-quantized.glb",
                "draco-valence.glb"):
    damaged(fixture)
check.finish()
