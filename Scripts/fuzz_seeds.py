#!/usr/bin/env python3
"""Makes the seed corpus of every fuzz target (Fuzz/, docs/fuzzing.md) from the project's own files.

    Scripts/fuzz_seeds.py OUT [--arvis .build/release/arvis] [--shared ../shared]

Writes OUT/<target>/ for each target, from: the examples, the test fixtures and the strings the
model tests read (USDA layers), `../shared/corpus` (skipped with a message when absent), and the
3D files `arvis scene` makes of the examples (GLB, glTF, USDZ, and the USDC layer inside each USDZ).
Pose packets are made from the reference fixtures' vectors. Nothing here is committed: the
campaign's minimized corpus is (Fuzz/Corpus).

Also writes OUT/spec.dict, the grammar's keys and keywords from `arvis schema` (so it follows the
grammar), for the spec targets; the other formats' dictionaries are Fuzz/Dictionaries/*.dict.
"""
import argparse
import ast
import base64
import csv
import hashlib
import io
import json
import math
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import urllib.parse
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGETS = ["FuzzSpecJSON", "FuzzSpecYAML", "FuzzLink", "FuzzPNG", "FuzzJPEG", "FuzzGLB", "FuzzGLTF",
           "FuzzUSDZ", "FuzzUSDC", "FuzzUSDA", "FuzzGeoJSON", "FuzzPosePacket", "FuzzRoomMessage",
           "FuzzHTTPBody", "FuzzHTTPField"]
LARGEST = 1 << 20  # seeds past 1 MB teach the fuzzer nothing a smaller one does not, and slow it


def files(folder, *suffixes):
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)


class Seeds:
    def __init__(self, out):
        self.out = out
        self.counts = {target: 0 for target in TARGETS}

    def add(self, target, data):
        if not data or len(data) > LARGEST:
            return
        folder = self.out / target
        folder.mkdir(parents=True, exist_ok=True)
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        self.counts[target] += 1


def specs(seeds, shared):
    sources = [ROOT / "Examples", ROOT / "Tests", shared / "corpus"]
    if not (shared / "corpus").is_dir():
        print(f"fuzz_seeds: {shared / 'corpus'} is absent: the iARVis corpus seeds are skipped")
    for folder in sources:
        for path in files(folder, ".json"):
            data = path.read_bytes()
            seeds.add("FuzzSpecJSON", data)
            for link in re.findall(rb"iARVis://[^\"\s\\]+", data, flags=re.IGNORECASE):
                seeds.add("FuzzLink", link)
        for path in files(folder, ".yaml", ".yml"):
            seeds.add("FuzzSpecYAML", path.read_bytes())
        for path in files(folder, ".geojson"):
            seeds.add("FuzzGeoJSON", path.read_bytes())
    # Every JSON spec is YAML too; a few as block YAML, written here without a YAML library.
    for path in files(ROOT / "Examples", ".json"):
        seeds.add("FuzzSpecYAML", path.read_bytes())
    for path in files(ROOT / "Tests", ".swift"):
        for link in re.findall(rb"iARVis://[^\"\s\\]+", path.read_bytes(), flags=re.IGNORECASE):
            seeds.add("FuzzLink", link)


def pictures(seeds, shared):
    for folder in [ROOT / "Tests", ROOT / "Examples", ROOT / "Sources", shared / "reference"]:
        for path in files(folder, ".png"):
            seeds.add("FuzzPNG", path.read_bytes())
        for path in files(folder, ".jpg", ".jpeg"):
            seeds.add("FuzzJPEG", path.read_bytes())


def swift_strings(path):
    """The multi-line string literals of a Swift file, as written (escapes left alone)."""
    return re.findall(r'"""\n(.*?)\n\s*"""', path.read_text(encoding="utf-8"), flags=re.DOTALL)


def models(seeds, arvis, shared):
    for path in files(ROOT / "Tests", ".swift"):
        for text in swift_strings(path):
            lines = text.splitlines()
            indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
            body = "\n".join(l[indent:] for l in lines) + "\n"
            if body.startswith("#usda"):
                seeds.add("FuzzUSDA", body.encode())
                seeds.add("FuzzUSDZ", usdz([("layer.usda", body.encode())]))
            elif body.lstrip().startswith("{") and '"asset"' in body and '"version"' in body:
                seeds.add("FuzzGLTF", body.encode())
    if not arvis or not pathlib.Path(arvis).is_file():
        print("fuzz_seeds: no arvis binary (swift build -c release): the GLB, glTF, USDZ and USDC seeds "
              "made by `arvis scene` are skipped")
        return
    with tempfile.TemporaryDirectory() as scratch:
        environments = files(ROOT / "Examples", ".json", ".yaml") + files(shared / "corpus" / "iarvis" / "environments", ".json")
        for spec in environments[:12]:
            for suffix, target in [(".glb", "FuzzGLB"), (".gltf", "FuzzGLTF"), (".usdz", "FuzzUSDZ")]:
                output = pathlib.Path(scratch) / (spec.stem + suffix)
                done = subprocess.run([arvis, "scene", str(spec), "-o", str(output)], capture_output=True)
                if done.returncode != 0 or not output.is_file():
                    continue
                data = output.read_bytes()
                seeds.add(target, data)
                if suffix == ".glb":
                    small_models(seeds, data)
                if suffix == ".usdz":
                    with zipfile.ZipFile(io.BytesIO(data)) as package:
                        for name in package.namelist():
                            if name.endswith(".usdc"):
                                seeds.add("FuzzUSDC", package.read(name))
                                seeds.add("FuzzUSDZ", usdz([(name, package.read(name))]))
                            elif name.endswith(".png"):
                                seeds.add("FuzzPNG", package.read(name))


def glb(document, binary):
    """A GLB of a glTF document and its binary chunk."""
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text
    if binary:
        chunks += struct.pack("<I4s", len(binary), b"BIN\0") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


def without_pictures(data):
    """A GLB with its images, textures and samplers taken out, and its binary chunk packed again with
    only what the accessors read: the scene's structure in a few kilobytes (the pictures are what make
    `arvis scene`'s files 100-400 KB, and the picture targets have their own seeds)."""
    length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20:20 + length])
    binary = data[20 + length + 8:] if len(data) > 20 + length + 8 else b""
    for key in ("images", "textures", "samplers"):
        document.pop(key, None)
    for material in document.get("materials", []):
        for key in ("normalTexture", "occlusionTexture", "emissiveTexture"):
            material.pop(key, None)
        for key in ("baseColorTexture", "metallicRoughnessTexture"):
            material.get("pbrMetallicRoughness", {}).pop(key, None)
    used = sorted({a["bufferView"] for a in document.get("accessors", []) if "bufferView" in a})
    views, packed = [], b""
    for index in used:
        view = dict(document["bufferViews"][index])
        start = view.get("byteOffset", 0)
        packed += b"\0" * (-len(packed) % 4)
        view["byteOffset"] = len(packed)
        packed += binary[start:start + view["byteLength"]]
        views.append(view)
    remap = {old: new for new, old in enumerate(used)}
    for accessor in document.get("accessors", []):
        if "bufferView" in accessor:
            accessor["bufferView"] = remap[accessor["bufferView"]]
    document["bufferViews"] = views
    document["buffers"] = [{"byteLength": len(packed)}] if packed else []
    return document, packed


def usdz(files):
    """A USDZ package: stored entries, each one's data 64-byte aligned (padding in the extra field)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as package:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            start = out.tell() + 30 + len(name.encode())
            padding = -(start + 4) % 64
            info.extra = struct.pack("<HH", 0x1986, padding) + b"\0" * padding
            package.writestr(info, data)
    return out.getvalue()


def small_models(seeds, data):
    """Small seeds of a GLB from `arvis scene`: itself without pictures, as GLB and as glTF with its
    buffer as a data: URI."""
    document, binary = without_pictures(data)
    seeds.add("FuzzGLB", glb(document, binary))
    if binary:
        document["buffers"] = [{"byteLength": len(binary),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(binary).decode()}]
    seeds.add("FuzzGLTF", json.dumps(document).encode())


def pose_packets(seeds, shared):
    """ARVis packets for a few poses (62 bytes, CRC-32 last) and the OpenTok vectors of the fixtures."""
    poses = [((0, 1.5, 0), (0, 0, 0)), ((0.25, 1.5, -0.75), (0, 0.3826834, 0)), ((-3, 0.2, 12), (0.5, -0.5, 0.5))]
    for frame, (position, orientation) in enumerate(poses, start=1):
        head = struct.pack("<BBHHId3f3f4f", 1, 0, 1920, 1440, frame, frame / 60, *position, *orientation,
                           1500, 1500, 960, 720)
        seeds.add("FuzzPosePacket", head + struct.pack("<I", zlib.crc32(head)))
    vectors = shared / "reference" / "fixtures" / "opentok-arframemetadata-vectors.synthetic.json"
    if vectors.is_file():
        for hexed in re.findall(r'"bytes_hex_le":\s*"([0-9a-f]+)"', vectors.read_text()):
            seeds.add("FuzzPosePacket", bytes.fromhex(hexed))


ROOM_TYPES = ["annotate", "deleteAnnotation", "mark", "plant", "removeTree", "planes", "signal"]


def balanced(text, start):
    """The `{…}` that opens at `start`, or None (braces inside strings are rare enough to ignore)."""
    depth = 0
    for end in range(start, min(len(text), start + 65536)):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if depth == 0:
            return text[start:end + 1]
    return None


def room_messages(seeds):
    """The room messages the tests and checks send: JSON in Swift strings, dicts in Python, and the
    legacy x:y:z:tapX:tapY signals."""
    opening = re.compile(r"""\{\s*["'](?:type)["']\s*:\s*["'](?:%s)["']""" % "|".join(ROOM_TYPES))
    for path in files(ROOT / "Tests", ".swift") + files(ROOT / "Scripts", ".py"):
        text = path.read_text(encoding="utf-8")
        for match in opening.finditer(text):
            literal = balanced(text, match.start())
            if literal is None:
                continue
            try:
                value = json.loads(literal)
            except ValueError:
                try:
                    value = ast.literal_eval(literal)
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    continue
            try:
                seeds.add("FuzzRoomMessage", json.dumps(value).encode())
            except (TypeError, ValueError):
                continue
        for signal in re.findall(r"[-0-9.e]+:[-0-9.e]+:[-0-9.e]+:[-0-9.e]+:[-0-9.e]+", text):
            seeds.add("FuzzRoomMessage", signal.encode())


def tables(value):
    """Every list of flat objects in a JSON value: the rows of the specs' chart data."""
    if isinstance(value, dict):
        for inner in value.values():
            yield from tables(inner)
    elif isinstance(value, list):
        scalar = (str, int, float, bool, type(None))
        if value and all(isinstance(row, dict) and row and all(isinstance(v, scalar) for v in row.values())
                         for row in value):
            yield value
        for inner in value:
            yield from tables(inner)


def row_bodies(seeds, shared):
    """Dataset appends made of the specs' chart data, and Repr-Digest fields of the examples: the
    first byte picks what the rest is (0 JSON lines, 1 JSON, 2 CSV, 4 a digest field), as
    FuzzHTTPBody reads it."""
    for folder in [ROOT / "Examples", shared / "corpus"]:
        for path in files(folder, ".json"):
            digest = base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()
            seeds.add("FuzzHTTPBody", f"\x04sha-512=:AA==:, sha-256=:{digest}:".encode())
            try:
                spec = json.loads(path.read_bytes())
            except ValueError:
                continue
            for rows in tables(spec):
                rows = rows[:50]
                seeds.add("FuzzHTTPBody", b"\x00" + "\n".join(json.dumps(row) for row in rows).encode())
                seeds.add("FuzzHTTPBody", b"\x01" + json.dumps(rows).encode())
                columns = list(dict.fromkeys(key for row in rows for key in row))
                text = io.StringIO()
                writer = csv.writer(text, lineterminator="\n")
                writer.writerow(columns)
                writer.writerows([["" if row.get(c) is None else row.get(c) for c in columns] for row in rows])
                seeds.add("FuzzHTTPBody", b"\x02" + text.getvalue().encode())


def header_fields(seeds):
    """If-Match lists of the tags the server gives the examples' versions, and Last-Event-ID cursors
    naming datasets after them: the first byte picks which (0 a list, 1 a cursor), as FuzzHTTPField
    reads it."""
    seeds.add("FuzzHTTPField", b"\x00*")
    for number, path in enumerate(files(ROOT / "Examples", ".json", ".yaml"), 1):
        tag = f'"{number}-{hashlib.sha256(path.read_bytes()).hexdigest()[:16]}"'
        seeds.add("FuzzHTTPField", b"\x00" + tag.encode())
        seeds.add("FuzzHTTPField", b"\x00" + f'W/{tag}, "{number + 1}-0000000000000000"'.encode())
        seeds.add("FuzzHTTPField", b"\x00" + urllib.parse.quote(tag).encode())
        seeds.add("FuzzHTTPField", b"\x01" + f"version={number}&rows={path.stem}:{number * 7},sensor:0".encode())


def spec_dictionary(out, arvis):
    """Every property name and string keyword of `arvis schema`, one libFuzzer dictionary entry each."""
    if not arvis or not pathlib.Path(arvis).is_file():
        print("fuzz_seeds: no arvis binary: the spec dictionary is not written")
        return
    schema = json.loads(subprocess.run([arvis, "schema"], capture_output=True, check=True).stdout)
    words = set()

    def walk(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                if key == "properties" and isinstance(inner, dict):
                    words.update(inner)
                if key in ("enum", "const"):
                    words.update(v for v in (inner if isinstance(inner, list) else [inner]) if isinstance(v, str))
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(schema)
    out.mkdir(parents=True, exist_ok=True)
    entries = [json.dumps(json.dumps(word)) for word in sorted(words)]  # "\"key\"": the key, quoted
    (out / "spec.dict").write_text("".join(f"{entry}\n" for entry in entries))
    print(f"spec.dict: {len(entries)} entries")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--arvis", default=str(ROOT / ".build" / "release" / "arvis"))
    parser.add_argument("--shared", type=pathlib.Path, default=ROOT.parent / "shared")
    arguments = parser.parse_args()
    seeds = Seeds(arguments.out)
    specs(seeds, arguments.shared)
    pictures(seeds, arguments.shared)
    models(seeds, arguments.arvis, arguments.shared)
    pose_packets(seeds, arguments.shared)
    room_messages(seeds)
    row_bodies(seeds, arguments.shared)
    header_fields(seeds)
    spec_dictionary(arguments.out, arguments.arvis)
    for target, count in seeds.counts.items():
        print(f"{target}: {count} seeds")
        if count == 0:
            print(f"fuzz_seeds: no seed for {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
