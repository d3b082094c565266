#!/usr/bin/env python3
"""Makes the 3D fixtures the model checks use, with independent tools (trimesh, Pillow, usd-core):
nothing third-party is copied. Usage: make_model_fixtures.py FOLDER

glTF side (trimesh): cube.glb (flat colour), sphere.glb (textured, ~100 000 triangles),
hierarchy.glb (nested transforms, three materials).
USD side (usd-core): zup_cm.usdz (Z up, centimetres, translate/rotateXYZ/scale and orient ops, quads,
face-varying indexed st, a textured UsdPreviewSurface; root layer .usdc), yup_text.usdz (root layer
.usda, GeomSubsets with two materials), plain.usda and plain.usdc.
Compressed (compressed_fixtures.py, the encoders' own libraries): meshopt-*.glb and compressed.json.
"""
import os
import sys

import numpy as np
import trimesh
from PIL import Image
from pxr import Gf, Sdf, Usd, UsdGeom, UsdShade, UsdUtils, Vt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compressed_fixtures  # noqa: E402


def checker(path, size=256, cells=8, colors=((200, 40, 40), (240, 220, 60))):
    image = Image.new("RGB", (size, size))
    pixels = image.load()
    step = size // cells
    for y in range(size):
        for x in range(size):
            pixels[x, y] = colors[((x // step) + (y // step)) % 2]
    image.save(path)
    return image


def gltf_fixtures(folder, texture):
    box = trimesh.creation.box(extents=(1.0, 2.0, 0.5))
    box.visual = trimesh.visual.ColorVisuals(box, face_colors=[30, 120, 220, 255])
    box.export(os.path.join(folder, "cube.glb"))

    sphere = trimesh.creation.uv_sphere(radius=0.5, count=[160, 320])
    v = sphere.vertices
    uv = np.stack([np.arctan2(v[:, 2], v[:, 0]) / (2 * np.pi) + 0.5, 1 - np.arccos(np.clip(v[:, 1] / 0.5, -1, 1)) / np.pi], axis=1)
    material = trimesh.visual.material.PBRMaterial(baseColorTexture=texture, metallicFactor=0.0, roughnessFactor=0.7)
    sphere.visual = trimesh.visual.TextureVisuals(uv=uv, material=material)
    sphere.export(os.path.join(folder, "sphere.glb"))

    scene = trimesh.Scene()
    base = trimesh.creation.box(extents=(2.0, 0.2, 2.0))
    base.visual = trimesh.visual.TextureVisuals(material=trimesh.visual.material.PBRMaterial(baseColorFactor=[90, 90, 90, 255]))
    scene.add_geometry(base, node_name="base", geom_name="base")
    arm = trimesh.creation.cylinder(radius=0.1, height=1.0)
    arm.visual = trimesh.visual.TextureVisuals(material=trimesh.visual.material.PBRMaterial(baseColorFactor=[200, 60, 60, 255], metallicFactor=0.8))
    turn = trimesh.transformations.rotation_matrix(np.radians(30), [0, 0, 1])
    turn[:3, 3] = [0.5, 0.6, 0.0]
    scene.add_geometry(arm, node_name="arm", geom_name="arm", parent_node_name="base", transform=turn)
    head = trimesh.creation.icosphere(subdivisions=2, radius=0.25)
    head.visual = trimesh.visual.TextureVisuals(material=trimesh.visual.material.PBRMaterial(baseColorFactor=[60, 200, 90, 255], roughnessFactor=0.3))
    lift = trimesh.transformations.scale_and_translate(scale=1.5, translate=[0.0, 0.0, 0.6])
    scene.add_geometry(head, node_name="head", geom_name="head", parent_node_name="arm", transform=lift)
    scene.export(os.path.join(folder, "hierarchy.glb"))


def preview_material(stage, path, texture=None, color=(0.8, 0.8, 0.8), st="st"):
    material = UsdShade.Material.Define(stage, path)
    surface = UsdShade.Shader.Define(stage, path + "/Surface")
    surface.CreateIdAttr("UsdPreviewSurface")
    surface.CreateInput("roughness", Sdf.ValueTypeNames.Float).Set(0.6)
    surface.CreateInput("metallic", Sdf.ValueTypeNames.Float).Set(0.0)
    if texture:
        reader = UsdShade.Shader.Define(stage, path + "/Reader")
        reader.CreateIdAttr("UsdPrimvarReader_float2")
        reader.CreateInput("varname", Sdf.ValueTypeNames.String).Set(st)
        tex = UsdShade.Shader.Define(stage, path + "/Texture")
        tex.CreateIdAttr("UsdUVTexture")
        tex.CreateInput("file", Sdf.ValueTypeNames.Asset).Set(texture)
        tex.CreateInput("st", Sdf.ValueTypeNames.Float2).ConnectToSource(reader.ConnectableAPI(), "result")
        tex.CreateOutput("rgb", Sdf.ValueTypeNames.Float3)
        surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).ConnectToSource(tex.ConnectableAPI(), "rgb")
    else:
        surface.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(*color))
    material.CreateSurfaceOutput().ConnectToSource(surface.ConnectableAPI(), "surface")
    return material


def usd_box(stage, path, size, offset=(0, 0, 0)):
    """A box of quads with face-varying, indexed texture coordinates."""
    sx, sy, sz = (s / 2 for s in size)
    ox, oy, oz = offset
    points = [(ox + x * sx, oy + y * sy, oz + z * sz) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = UsdGeom.Mesh.Define(stage, path)
    mesh.CreatePointsAttr([Gf.Vec3f(*p) for p in points])
    mesh.CreateFaceVertexCountsAttr([4] * 6)
    mesh.CreateFaceVertexIndicesAttr([i for face in faces for i in face])
    mesh.CreateExtentAttr([Gf.Vec3f(ox - sx, oy - sy, oz - sz), Gf.Vec3f(ox + sx, oy + sy, oz + sz)])
    mesh.CreateSubdivisionSchemeAttr("none")
    st = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.faceVarying)
    st.Set([Gf.Vec2f(0, 0), Gf.Vec2f(1, 0), Gf.Vec2f(1, 1), Gf.Vec2f(0, 1)])
    st.SetIndices(Vt.IntArray([0, 1, 2, 3] * 6))
    return mesh


def usd_fixtures(folder):
    os.chdir(folder)
    # Z up, centimetres, every kind of transform operation, a textured material; packaged by usd-core.
    stage = Usd.Stage.CreateNew("zup_cm.usdc")
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 0.01)
    root = UsdGeom.Xform.Define(stage, "/Root")
    stage.SetDefaultPrim(root.GetPrim())
    moved = UsdGeom.Xform.Define(stage, "/Root/Moved")
    moved.AddTranslateOp().Set(Gf.Vec3d(10, 20, 30))
    moved.AddRotateXYZOp().Set(Gf.Vec3f(10, 20, 30))
    moved.AddScaleOp().Set(Gf.Vec3f(1, 2, 1))
    turned = UsdGeom.Xform.Define(stage, "/Root/Moved/Turned")
    turned.AddOrientOp().Set(Gf.Quatf(0.9238795, 0.0, 0.3826834, 0.0))
    box = usd_box(stage, "/Root/Moved/Turned/Box", (40, 20, 10))
    UsdShade.MaterialBindingAPI.Apply(box.GetPrim()).Bind(preview_material(stage, "/Root/Materials/Checker", texture="checker.png"))
    stage.GetRootLayer().Save()
    UsdUtils.CreateNewARKitUsdzPackage(Sdf.AssetPath("zup_cm.usdc"), "zup_cm.usdz")

    # A text root layer, Y up, metres, two materials by GeomSubset.
    stage = Usd.Stage.CreateNew("yup_text.usda")
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/World")
    stage.SetDefaultPrim(root.GetPrim())
    box = usd_box(stage, "/World/Box", (0.6, 0.3, 0.4), offset=(0.2, 0.15, 0))
    UsdShade.MaterialBindingAPI.Apply(box.GetPrim())
    red = preview_material(stage, "/World/Looks/Red", color=(0.8, 0.1, 0.1))
    blue = preview_material(stage, "/World/Looks/Blue", texture="checker.png")
    api = UsdShade.MaterialBindingAPI(box.GetPrim())
    api.Bind(red)
    subset = UsdShade.MaterialBindingAPI.CreateMaterialBindSubset(api, "top", Vt.IntArray([3, 5]), UsdGeom.Tokens.face)
    UsdShade.MaterialBindingAPI.Apply(subset.GetPrim()).Bind(blue)
    stage.GetRootLayer().Save()
    UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath("yup_text.usda"), "yup_text.usdz")

    for name in ("plain.usda", "plain.usdc"):
        stage = Usd.Stage.CreateNew(name)
        UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
        UsdGeom.SetStageMetersPerUnit(stage, 1.0)
        root = UsdGeom.Xform.Define(stage, "/Model")
        stage.SetDefaultPrim(root.GetPrim())
        root.AddTranslateOp().Set(Gf.Vec3d(0, 0.5, 0))
        usd_box(stage, "/Model/Box", (1, 1, 1))
        stage.GetRootLayer().Save()


def main():
    folder = os.path.abspath(sys.argv[1])
    os.makedirs(folder, exist_ok=True)
    texture = checker(os.path.join(folder, "checker.png"))
    gltf_fixtures(folder, texture)
    usd_fixtures(folder)
    compressed_fixtures.make(folder)


if __name__ == "__main__":
    main()
