#!/usr/bin/env python3
"""The peers' side of `arvis-bench models`: makes a USDZ laid out as Apple's AR Quick Look samples
are, with usd-core, then times usd-core opening and traversing it and f3d drawing the same model.

The file (made here, nothing copied): a 24 704-triangle mesh (quads, face-varying indexed `st`),
metersPerUnit 0.01, Y up; its UsdPreviewSurface material bound on the mesh's parent Xform; five
2048 x 2048 PNG textures — base colour, normal map, and separate single-channel metallic, roughness
and occlusion maps — each a UsdUVTexture whose `inputs:st` comes from a UsdPrimvarReader_float2.

Usage: apple_like_usdz.py OUT.usdz [--iterations N] [--glb MODEL.glb --size PX]
Prints `RESULT usdcore_open_traverse_ms` (open + traverse: points, indices, st and bound materials),
and with --glb `RESULT f3d_thumbnail_ms` (f3d offscreen, its engine made beforehand: load the GLB and
draw one frame at PX x PX).
"""
import argparse
import math
import os
import statistics
import sys
import tempfile
import time

import numpy as np
from PIL import Image
from pxr import Sdf, Usd, UsdGeom, UsdShade, UsdUtils


def textures(folder, side=2048):
    """Five PNGs with photographic-like detail (smooth fields plus grain), so decoding costs what it would."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:side, 0:side] / side
    grain = lambda: rng.integers(0, 24, (side, side), dtype=np.uint8)
    field = lambda fx, fy: (np.sin(x * fx * math.pi) * np.cos(y * fy * math.pi) * 0.5 + 0.5)
    base = np.stack([field(3, 5) * 180 + grain(), field(7, 2) * 120 + grain(), field(2, 9) * 90 + grain()], axis=2)
    normal = np.stack([field(40, 1) * 60 + 98, field(1, 40) * 60 + 98, np.full((side, side), 235.0)], axis=2)
    files = {
        "diffuse.png": Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB"),
        "normal.png": Image.fromarray(np.clip(normal, 0, 255).astype(np.uint8), "RGB"),
        "metallic.png": Image.fromarray((field(4, 4) > 0.7).astype(np.uint8) * 255, "L"),
        "roughness.png": Image.fromarray(np.clip(field(6, 3) * 200 + grain(), 0, 255).astype(np.uint8), "L"),
        "occlusion.png": Image.fromarray(np.clip(255 - field(1, 1) * 80 - grain(), 0, 255).astype(np.uint8), "L"),
    }
    for name, image in files.items():
        image.save(os.path.join(folder, name))
    return list(files)


def torus(rings=193, sides=64, major=40.0, minor=12.0):
    """Quads of a torus in centimetres: points, counts, indices, and face-varying st with indices."""
    points, st = [], []
    for i in range(rings):
        u = 2 * math.pi * i / rings
        for j in range(sides):
            v = 2 * math.pi * j / sides
            r = major + minor * math.cos(v)
            points.append((r * math.cos(u), minor * math.sin(v) + 20, r * math.sin(u)))
    for i in range(rings + 1):
        for j in range(sides + 1):
            st.append((i / rings, j / sides))
    indices, st_indices = [], []
    for i in range(rings):
        for j in range(sides):
            a, b = i * sides + j, ((i + 1) % rings) * sides + j
            c, d = ((i + 1) % rings) * sides + (j + 1) % sides, i * sides + (j + 1) % sides
            indices += [a, b, c, d]
            sa, sb = i * (sides + 1) + j, (i + 1) * (sides + 1) + j
            st_indices += [sa, sb, sb + 1, sa + 1]
    return points, [4] * (rings * sides), indices, st, st_indices


def make(path):
    folder = tempfile.mkdtemp(prefix="apple-like-")
    names = textures(folder)
    layer = os.path.join(folder, "chair.usdc")
    stage = Usd.Stage.CreateNew(layer)
    UsdGeom.SetStageMetersPerUnit(stage, 0.01)
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    root = UsdGeom.Xform.Define(stage, "/Chair")
    stage.SetDefaultPrim(root.GetPrim())
    geometry = UsdGeom.Xform.Define(stage, "/Chair/Geom")
    mesh = UsdGeom.Mesh.Define(stage, "/Chair/Geom/Body")
    points, counts, indices, st, st_indices = torus()
    mesh.CreatePointsAttr(points)
    mesh.CreateFaceVertexCountsAttr(counts)
    mesh.CreateFaceVertexIndicesAttr(indices)
    mesh.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
    primvar = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.faceVarying)
    primvar.Set(st)
    primvar.SetIndices(st_indices)
    material = UsdShade.Material.Define(stage, "/Chair/Materials/ChairMaterial")
    surface = UsdShade.Shader.Define(stage, "/Chair/Materials/ChairMaterial/PBRShader")
    surface.CreateIdAttr("UsdPreviewSurface")
    material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
    reader = UsdShade.Shader.Define(stage, "/Chair/Materials/ChairMaterial/stReader")
    reader.CreateIdAttr("UsdPrimvarReader_float2")
    reader.CreateInput("varname", Sdf.ValueTypeNames.Token).Set("st")
    wiring = {
        "diffuse.png": ("diffuseColor", Sdf.ValueTypeNames.Color3f, "rgb", "sRGB"),
        "normal.png": ("normal", Sdf.ValueTypeNames.Normal3f, "rgb", "raw"),
        "metallic.png": ("metallic", Sdf.ValueTypeNames.Float, "r", "raw"),
        "roughness.png": ("roughness", Sdf.ValueTypeNames.Float, "r", "raw"),
        "occlusion.png": ("occlusion", Sdf.ValueTypeNames.Float, "r", "raw"),
    }
    for name in names:
        input_name, kind, output, space = wiring[name]
        texture = UsdShade.Shader.Define(stage, f"/Chair/Materials/ChairMaterial/{input_name}Texture")
        texture.CreateIdAttr("UsdUVTexture")
        texture.CreateInput("file", Sdf.ValueTypeNames.Asset).Set(name)
        texture.CreateInput("sourceColorSpace", Sdf.ValueTypeNames.Token).Set(space)
        texture.CreateInput("st", Sdf.ValueTypeNames.Float2).ConnectToSource(reader.ConnectableAPI(), "result")
        if input_name == "normal":
            texture.CreateInput("scale", Sdf.ValueTypeNames.Float4).Set((2, 2, 2, 1))
            texture.CreateInput("bias", Sdf.ValueTypeNames.Float4).Set((-1, -1, -1, 0))
        value_type = Sdf.ValueTypeNames.Float3 if output == "rgb" else Sdf.ValueTypeNames.Float
        texture.CreateOutput(output, value_type)
        surface.CreateInput(input_name, kind).ConnectToSource(texture.ConnectableAPI(), output)
    UsdShade.MaterialBindingAPI.Apply(geometry.GetPrim()).Bind(material)
    stage.GetRootLayer().Save()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        ok = UsdUtils.CreateNewARKitUsdzPackage(Sdf.AssetPath("chair.usdc"), os.path.abspath(os.path.join(cwd, path)))
    finally:
        os.chdir(cwd)
    if not ok:
        sys.exit("usd-core could not package the USDZ")


def open_and_traverse(path):
    stage = Usd.Stage.Open(path)
    triangles = 0
    for prim in stage.Traverse():
        if prim.IsA(UsdGeom.Mesh):
            mesh = UsdGeom.Mesh(prim)
            mesh.GetPointsAttr().Get()
            counts = mesh.GetFaceVertexCountsAttr().Get()
            mesh.GetFaceVertexIndicesAttr().Get()
            UsdGeom.PrimvarsAPI(prim).GetPrimvar("st").ComputeFlattened()
            triangles += sum(c - 2 for c in counts)
        UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial()
    return triangles


def f3d_thumbnails(glb, size, iterations):
    """Seconds for f3d to load the GLB and draw one frame, the engine made once beforehand."""
    import f3d
    f3d.Log.set_verbose_level(f3d.Log.VerboseLevel.WARN)
    engine = f3d.Engine.create_egl()
    engine.options.update({"render.grid.enable": False, "ui.axis": False})
    engine.window.size = (size, size)
    times = []
    for _ in range(iterations + 1):
        engine.scene.clear()
        start = time.perf_counter()
        engine.scene.add(glb)
        engine.window.render_to_image(False)
        times.append(time.perf_counter() - start)
    return times[1:]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--iterations", type=int, default=7)
    parser.add_argument("--glb", help="a GLB of the same model for f3d to draw")
    parser.add_argument("--size", type=int, default=512)
    options = parser.parse_args()
    if options.glb:
        times = f3d_thumbnails(options.glb, options.size, options.iterations)
        print(f"RESULT f3d_thumbnail_ms {statistics.median(times) * 1000:.1f} ms")
        return
    if not os.path.exists(options.output):
        make(options.output)
    triangles = open_and_traverse(options.output)
    times = []
    for _ in range(options.iterations):
        start = time.perf_counter()
        open_and_traverse(options.output)
        times.append(time.perf_counter() - start)
    print(f"usd-core {Usd.GetVersion()}: {triangles} triangles, {os.path.getsize(options.output)} bytes")
    print(f"RESULT usdcore_open_traverse_ms {statistics.median(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
