"""Runs `arvis` on hostile inputs, as an attacker or a careless user would, under a 4 GB address-space
cap and a 60 s limit each: nothing may crash or hang, no local file or private address may be read,
no unsafe link may be written, and every refusal must be a clear message with a non-zero exit.

Usage: python3 Scripts/check_hostile.py ARVIS_BINARY
Prints one line per case and ends with `N passed, N failed`.
"""
import json
import urllib.parse
import math
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402

ADDRESS_SPACE = 4 * 1024 ** 3
SECONDS = 60
# Resident memory no command may exceed on any input within the default limits.
RESIDENT_LIMIT_KB = 1024 * 1024


def cap():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run(binary, arguments, stdin=None, stdout=subprocess.PIPE):
    try:
        process = subprocess.run([binary] + arguments, input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                                 timeout=SECONDS, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out"
    return process.returncode, process.stdout or b"", process.stderr


def write(folder, name, content):
    path = os.path.join(folder, name)
    with open(path, "wb" if isinstance(content, bytes) else "w") as file:
        if isinstance(content, (dict, list)):
            json.dump(content, file)
        else:
            file.write(content)
    return path


def chart(mark, xs, ys):
    return {"dataSources": [{"label": "default", "data": {"x": xs, "y": ys}}],
            "components": [{"type": mark, "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}


def polygon(coordinates):
    return {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [coordinates]}}]}


def cases(folder):
    """(name, arguments, stdin, expected exit code, text the messages must contain, check of the output)"""
    out = os.path.join(folder, "out")
    images = ["/etc/passwd", "../../../../../../etc/passwd", "file:///proc/self/environ", "http://127.0.0.1:9/x.png",
              "http://localhost:9/x.png", "http://169.254.169.254/latest/meta-data/", "http://[::1]:9/x.png",
              "http://2130706433:9/x.png", "http://10.0.0.1/x.png"]
    attack = write(folder, "attack.json", {"vStack": {"elements": [
        {"image": {"url": url, "contentMode": "fit", "width": 10, "height": 10}} for url in images]}})
    links = write(folder, "links.json", {"vStack": {"elements": [
        {"text": {"content": "[a](javascript:alert(1)) [b]( JaVaScRiPt:alert(2)) [c](vbscript:x) [d](data:text/html,<script>) [ok](https://example.org)"}},
        {"link": {"url": "javascript:alert(3)", "title": "t"}},
        {"text": {"content": "tap", "modifiers": [{"onTap": {"action": {"openURL": {"url": "JAVASCRIPT:alert(4)"}}}}]}},
        {"table": {"configuration": {"tableData": {"data": {"a": ["[x](javascript:alert(5))"]}}}}}]}})
    square = [[-8.8, 39.7], [-8.79, 39.7], [-8.79, 39.71], [-8.8, 39.71], [-8.8, 39.7]]
    yield "fetch reads no local file or private address (svg)", ["render", attack, "--fetch", "-o", out + ".svg"], None, 0, "", \
        lambda path: b"base64," not in open(out + ".svg", "rb").read() and b"root:" not in open(out + ".svg", "rb").read()
    yield "fetch reads no local file or private address (html)", ["render", attack, "--fetch", "-o", out + ".html"], None, 0, "", \
        lambda path: b"base64," not in open(out + ".html", "rb").read()
    yield "validate warns about local and private resources", ["validate", "--strict", attack], None, 1, "never fetched", None
    yield "unsafe links become text", ["render", links, "-o", out + "-links.html"], None, 0, "", \
        lambda path: re.findall(rb'href="([^"]*)"', open(out + "-links.html", "rb").read()) == [b"https://example.org"]
    yield "validate reports unsafe links", ["validate", "--strict", links], None, 1, "", None
    # iARVis links (issue 15): a chain of components each embedding the next, each 40 stacks deep
    # (120 levels of JSON: as deep as an embedded document may be); links that do not read; a page
    # link to a script.
    chained = {"text": {"content": "end"}}
    for level in range(10):
        nested = chained
        for _ in range(40):
            nested = {"vStack": {"elements": [nested]}}
        chained = {"text": {"content": f"[level {level}](iARVis://openComponent?json={urllib.parse.quote(json.dumps(nested), safe='')})"}}
    chain = write(folder, "chain.json", {"imageTrackingConfigurations": [{"imageURL": "https://a.example/p.jpg", "relationships": [
        {"widgetConfiguration": {"component": chained, "relativeAnchorPoint": "top", "relativePosition": [0, 0, 0]}}]}]})
    yield "a ten-link chain of deep components validates", ["validate", chain], None, 0, "", None
    yield "a ten-link chain renders as HTML dialogs", ["render", chain, "--format", "html", "-o", out + "-chain"], None, 0, "", \
        lambda path: b"iARVis://" not in open(out + "-chain/image1-widget1.html", "rb").read()
    yield "a ten-link chain opens in a scene", ["scene", chain, "--open-links", "-o", out + "-chain.json"], None, 0, "", None
    yield "a ten-link chain is listed", ["links", chain], None, 0, "", None
    broken = write(folder, "broken-links.json", {"text": {"content": "[a](iARVis://openComponent?json=%7B%22te) [b](iARVis://openComponent?json=%E0%A4%) "
                                                                      "[c](iARVis://nope?x=1)"}})
    yield "links that do not read are located errors", ["validate", broken], None, 1, "cannot be read", None
    script = write(folder, "script-link.json", {"text": {"content": "[d](iARVis://link?href=javascript%3Aalert(1)) [e](iARVis://link?href=JaVaScRiPt%3Ax)"}})
    yield "an iARVis page link to a script is text", ["render", script, "--format", "html", "-o", out + "-script.html"], None, 0, "", \
        lambda path: b"javascript" not in open(out + "-script.html", "rb").read().split(b"<script>")[0].lower()
    for name, value in [("font size", {"text": {"content": "a", "fontStyle": {"size": 1e308}}}),
                        ("spacing", {"vStack": {"spacing": 1e308, "elements": [{"spacer": {}}]}}),
                        ("padding", {"text": {"content": "a", "modifiers": [{"padding": {"leading": 1e308}}]}}),
                        ("image width", {"image": {"url": "a.png", "contentMode": "fit", "width": 1e308}}),
                        ("table length", {"table": {"configuration": {"tableData": {"data": {"a": ["1"]}, "length": -5}}}})]:
        spec = write(folder, name.replace(" ", "-") + ".json", value)
        yield f"a huge {name} is a located error", ["render", spec, "--format", "png", "-o", out + ".png"], None, 1, ".json:1:", None
    yield "bar values of ±1e308 render", ["render", write(folder, "bars.json", chart("BarMark", ["a", "b"], [1e308, -1e308])), "--format", "png", "-o", out + ".png"], None, 0, "", None
    yield "endless standard input stops at the limit", ["validate", "-"], b"[" * 70_000_000, 2, "32 MB limit", None
    yield "/dev/zero stops at the limit", ["validate", "/dev/zero"], None, 2, "limit", None
    yield "a folder as input", ["validate", folder], None, 2, "is a folder", None
    deep = write(folder, "deep.json", "[" * 100_000 + "]" * 100_000)
    yield "100 000 levels at --max-depth 1000", ["validate", "--max-depth", "1000", deep], None, 1, "nested more than", None
    yield "--max-depth beyond the stack", ["validate", "--max-depth", "1000000", deep], None, 2, "--max-depth must be between", None
    yield "a full disk", ["schema"], None, 2, "No space left on device", "devfull"
    yield "a 2 000-field scatter-plot matrix", ["render", write(folder, "splom.json", {"splom": {"data": {f"f{i}": [1, 2] for i in range(2000)}, "fields": [f"f{i}" for i in range(2000)]}}), "-o", out + ".svg"], None, 1, "--max-splom-fields", None
    yield "a 10^6-row table", ["render", write(folder, "table.json", {"table": {"configuration": {"tableData": {"data": {"a": ["x"] * 1_000_000}}}}}), "-o", out + ".svg"], None, 1, "--max-cells", None
    yield "nested Markdown links", ["render", write(folder, "md.json", {"text": {"content": "[" * 20_000 + "a" + "](x)" * 20_000}}), "-o", out + ".svg"], None, 0, "", None
    ones = write(folder, "ones.json", '{"dataSources":[{"label":"default","data":{"x":[' + "1," * 15_900_000 + '1]}}],'
                 '"components":[{"type":"LineMark","config":{"x":{"field":"x"},"y":{"field":"x"}}}]}')
    yield "32 MB of one-digit numbers validate under 1 GB", ["validate", ones], None, 0, "", None
    yield "a line chart past --max-rows", ["render", ones, "-o", out + ".svg"], None, 1, "--max-rows", None
    yield "a 200 000-character word", ["render", write(folder, "word.json", {"text": {"content": "a" * 200_000}}), "-o", out + ".svg"], None, 0, "", None
    rows = 300_000
    yield "a 300 000-row line chart", ["render", write(folder, "line.json", chart("LineMark", list(range(rows)), [math.sin(i / 500) for i in range(rows)])), "-o", out + ".png"], None, 0, "", None
    yield "plant: the whole Earth", ["plant", "--area", write(folder, "earth.geojson", polygon([[-180, -90], [180, -90], [180, 90], [-180, 90], [-180, -90]])), "-o", out + ".geojson"], None, 1, "polar", None
    yield "plant: an unsplit antimeridian crossing", ["plant", "--area", write(folder, "am.geojson", polygon([[179.99, 10], [-179.99, 10], [-179.99, 10.01], [179.99, 10.01], [179.99, 10]])), "-o", out + ".geojson"], None, 1, "antimeridian", None
    yield "plant: a self-intersecting ring", ["plant", "--area", write(folder, "bow.geojson", polygon([[0, 0], [0.001, 0.001], [0.001, 0], [0, 0.001], [0, 0]])), "-o", out + ".geojson"], None, 1, "crosses", None
    yield "plant: a spacing too fine", ["plant", "--area", write(folder, "square.geojson", polygon(square)), "--spacing", "0.05", "-o", out + ".geojson"], None, 2, "grid cells", None
    yield "plant: --spacing 0", ["plant", "--area", os.path.join(folder, "square.geojson"), "--spacing", "0", "-o", out + ".geojson"], None, 2, "greater than 0", None
    yield "plant: --orientation 1e308 still plants", ["plant", "--area", os.path.join(folder, "square.geojson"), "--layout", "hex", "--spacing", "5", "--orientation", "1e308", "-o", out + ".geojson"], None, 0, "", \
        lambda path: len(json.load(open(out + ".geojson"))["features"]) > 1000
    yield "plant: nothing fits", ["plant", "--area", write(folder, "tiny.geojson", polygon([[-8.8, 39.7], [-8.79999, 39.7], [-8.79999, 39.70001], [-8.8, 39.7]])), "--layout", "reforestar", "-o", out + ".geojson"], None, 1, "no tree fits", None
    yield "scene: unknown extension", ["scene", os.path.join(folder, "attack.json"), "-o", out + ".obj"], None, 2, ".json, .gltf, .glb or .usdz", None
    yield "render: one file for many widgets", ["render", write(folder, "env.json", {"imageTrackingConfigurations": [{"imageURL": "https://example.org/a.jpg", "relationships": [
        {"widgetConfiguration": {"component": {"text": {"content": "a"}}, "relativeAnchorPoint": "auto", "relativePosition": [0, 0, 0], "positionOffset": [0, 0, 0]}}] * 2}]}), "-o", out + ".png"], None, 2, "--widget N", None
    yield "non-UTF-8 input", ["validate", write(folder, "latin1.json", b'{"text": {"content": "caf\xe9"}}')], None, 1, "UTF-8", None
    yield "truncated input", ["validate", write(folder, "truncated.json", '{"vStack": {"elements": [{"text": {"conte')], None, 1, "truncated.json:1:", None
    yield "a misspelled command", ["rendr", attack], None, 2, "did you mean 'render'", None
    deep_geometry = '{"type":"GeometryCollection","geometries":[' * 5000 + '{"type":"Point","coordinates":[0,0]}' + ']}' * 5000
    yield "plant: 5 000 nested GeometryCollections", ["plant", "--area", write(folder, "deep.geojson", deep_geometry), "-o", out + ".geojson"], None, 1, "nested more than", None
    yield "plant: NaN coordinates", ["plant", "--area", write(folder, "nan.geojson", '{"type":"Polygon","coordinates":[[[NaN,1],[2,3],[4,5],[NaN,1]]]}'), "-o", out + ".geojson"], None, 1, "NaN", None
    yield "plant: a two-point ring", ["plant", "--area", write(folder, "line.geojson", '{"type":"Polygon","coordinates":[[[0,0],[0,0.001]]]}'), "-o", out + ".geojson"], None, 1, "at least three", None
    yield "YAML aliases (a billion laughs)", ["validate", write(folder, "bomb.yaml", 'a: &a ["x","x"]\nb: &b [*a,*a]\nc: [*b,*b]\n')], None, 1, "aliases are not supported", None
    yield "YAML nested 50 000 deep", ["validate", write(folder, "deep.yaml", "[" * 50_000 + "]" * 50_000)], None, 1, "nested more than", None
    yield "scene: a target size beyond the limits", ["scene", os.path.join(folder, "env.json"), "--target-size", "1e300x1e300", "-o", out + ".json"], None, 2, "--target-size", None
    yield "species: a 60 000-character query", ["species", "q" * 60_000], None, 1, "no species matches", None
    yield "qr: text too long for any version", ["qr", "x" * 3000, "-o", out + ".svg"], None, 2, "do not fit", None
    yield "qr: --iarvis refuses a javascript: URL", ["qr", "javascript:alert(1)", "--iarvis", "-o", out + ".svg"], None, 2, "http or https", None
    yield "qr: an unknown output extension", ["qr", "https://example.org", "-o", out + ".gif"], None, 2, ".svg or .png", None
    yield from picture_cases(folder, out)
    yield from model_cases(folder, out)


def glb(document, binary=b""):
    """A GLB file of a JSON document (a dict or text) and a binary chunk."""
    import struct
    text = (json.dumps(document) if isinstance(document, dict) else document).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + (struct.pack("<II", len(binary), 0x004E4942) + binary if binary else b"")
    return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks


def model_cases(folder, out):
    """3D files built to hurt: every one refused with a located message, none read outside its folder."""
    import struct
    big = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 12}], "bufferViews": [{"buffer": 0, "byteLength": 12}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2_000_000_000, "type": "VEC3"}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "nodes": [{"mesh": 0}]}
    yield "model: an accessor of 2e9 elements", ["inspect", write(folder, "big.glb", glb(big, b"\0" * 12))], None, 1, "accessors[0]", None
    cycle = {"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {"children": [2]}, {"children": [1]}], "scenes": [{"nodes": [0]}]}
    yield "model: a node cycle", ["inspect", write(folder, "cycle.glb", glb(cycle))], None, 1, "more than one parent", None
    deep = '{"asset": {"version": "2.0"}, "extras": ' + "[" * 100_000 + "]" * 100_000 + "}"
    yield "model: glTF JSON 100 000 levels deep", ["inspect", write(folder, "deep.glb", glb(deep))], None, 1, "glTF", None
    passwd = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "../../../../../../etc/passwd"}]}
    yield "model: a glTF naming /etc/passwd", ["convert", "--to", "usdz", write(folder, "passwd.gltf", passwd), "-o", out + ".usdz"], None, 1, "outside the glTF file's folder", None
    yield "model: a glTF naming a URL", ["inspect", write(folder, "url.gltf", {"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "http://169.254.169.254/x"}]})], None, 1, "outside", None
    zipped = b"PK\x03\x04" + struct.pack("<HHHHHIIIHH", 20, 0, 8, 0, 0, 0, 10, 1_000_000, 10, 0) + b"scene.usdc" + b"\0" * 10
    yield "model: a deflated USDZ entry", ["inspect", write(folder, "deflated.usdz", zipped)], None, 1, "compressed", None
    crate = b"PXR-USDC" + bytes([0, 8, 0, 0, 0, 0, 0, 0]) + struct.pack("<q", 88) + b"\0" * 64 + struct.pack("<Q", 1) + b"TOKENS".ljust(16, b"\0") + struct.pack("<qq", 128, 24) + struct.pack("<QQQ", 2**40, 2**40, 5)
    yield "model: a crate claiming a terabyte of tokens", ["inspect", write(folder, "tera.usdc", crate)], None, 1, "", None
    yield "model: USDA nested 100 000 deep", ["inspect", write(folder, "deep.usda", "#usda 1.0\n" + 'def "A" {\n' * 100_000)], None, 1, "nest more than", None
    yield "model: /dev/zero", ["inspect", "--max-input-mb", "8", "/dev/zero"], None, 2, "limit", None
    yield "thumbnail: --size 100000", ["thumbnail", os.path.join(folder, "cycle.glb"), "--size", "100000", "-o", out + ".png"], None, 2, "--size", None


def picture_cases(folder, out):
    """Damaged and oversized pictures drawn into PNG output: each is drawn or replaced by its
    placeholder with a warning that names it, within the memory cap."""
    import io
    import struct
    import zlib
    from PIL import Image

    def png(width, height, data):
        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")

    def jpeg(width, height, **options):
        buffer = io.BytesIO()
        Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, "JPEG", **options)
        return buffer.getvalue()

    progressive = jpeg(640, 480, progressive=True, quality=90)
    huge_header = bytearray(jpeg(16, 16))
    start = huge_header.index(b"\xff\xc0")
    huge_header[start + 5:start + 9] = struct.pack(">HH", 65000, 65000)
    pictures = {
        "bomb.png": png(1, 1, zlib.compress(b"\0" * 300_000_000, 9)),
        "giant.png": png(100_000, 100_000, zlib.compress(b"\0" * 1000)),
        "huge-header.jpg": bytes(huge_header),
        "truncated.jpg": progressive[:len(progressive) // 3],
        "forty-megapixels.jpg": jpeg(8000, 5000, quality=50),
        "garbage.jpg": b"\xff\xd8\xff" + random.Random(7).randbytes(5000),
        "not-a-picture.png": b"\x89PNG\r\n\x1a\n" + b"\xff" * 100,
    }
    for name, content in pictures.items():
        write(folder, name, content)
    # Each refused picture is named in a warning that ends "a placeholder is drawn".
    expected_warning = {"bomb.png": "inflates past", "giant.png": "more than", "huge-header.jpg": "more than",
                        "garbage.jpg": "placeholder is drawn", "not-a-picture.png": "damaged"}
    for name, content in pictures.items():
        spec = write(folder, f"picture-{name}.json", {"image": {"url": name, "contentMode": "fit", "width": 200}})
        warning = expected_warning.get(name, "")
        yield f"picture: {name} in PNG output", ["render", spec, "--fetch", "-o", out + ".png"], None, 0, warning, None


def main():
    binary = os.path.abspath(sys.argv[1])
    checks = Checks()
    memory_reported = False
    with tempfile.TemporaryDirectory() as folder:
        for name, arguments, stdin, expected, message, check in cases(folder):
            if check == "devfull":
                with open("/dev/full", "wb") as full:
                    status, _, error = run(binary, arguments, stdin, stdout=full)
                check = None
            else:
                status, output, error = run(binary, arguments, stdin)
                error = output + error
            text = error.decode("utf-8", "replace")
            problems = []
            if status is None:
                problems.append("hung past 60 s")
            elif status < 0 or status > 2:
                problems.append(f"crashed (status {status})")
            elif expected == "nonzero" and status == 0 or expected != "nonzero" and status != expected:
                problems.append(f"exit {status}, expected {expected}")
            if status not in (None, 0) and not text.strip():
                problems.append("refused without a message")
            if message and message not in text:
                problems.append(f"the messages lack {message!r}")
            if status == 0 and check and not check(None):
                problems.append("the output is wrong")
            resident = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            if resident > RESIDENT_LIMIT_KB and not memory_reported:
                problems.append(f"resident memory reached {resident // 1024} MB (over 1 GB)")
                memory_reported = True
            checks(name, not problems, f"{'; '.join(problems)}\n     {text.strip()[:300]}")
    checks.finish()


if __name__ == "__main__":
    main()
