#!/usr/bin/env python3
"""The spec hub's phone page as a live WebXR AR device, in real Chromium (Debian's, driven by
Playwright) against a live `arvis serve` on loopback. No real device is used: the device is the
scripted WebXR runtime Tests/WebXR/xr-runtime.js, injected before the page's scripts, which the
check drives through `window.__xr` (viewer and image poses, taps, frames, framebuffer reads).

Usage: check_webxr.py ARVIS [SCREENSHOTS]

On a world-anchors environment this script writes (a segmented control, an iARVis openComponent
link, plain texts), opened with a room link: Enter AR is offered; the reticle appears where the
view's centre meets the floor; a tap places the environment and every quad's matrix is the
contract's placement of scene.json (1 mm, 0.1°); the framebuffer, read back from scripted camera
poses, shows each widget's PNG where the view's projection puts it; a save in Studio and ten through
the API each reach AR within 1 s in the same session, reloading only the changed widget's texture;
a tap on the segmented control opens it in #ar-panel, a tap on the link shows its child quad where
scene.json?links=open puts it; "Share my view" sends a Studio room the scripted poses, and the
expert's annotations appear in the framebuffer at their projected pixel; an expired room link is
refused in the API's error shape; a second entry is timed with a warm cache. On the corpus's example
1 (an image target; skipped when ../shared/corpus is absent): with image tracking, its widgets follow
the scripted image pose and its link opens in AR; without, the target is placed by a tap on a wall,
then on the floor. A 50-widget environment times the page's XR frame callback. No page logs a
console error and nothing is requested from outside the server. Framebuffer pictures go to
SCREENSHOTS when given. Prints 'N passed, N failed' and RESULT lines.
"""
import base64
import io
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from datetime import datetime

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks, call, free_port, wait_for, wait_until_up  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

ARVIS = sys.argv[1]
SHOTS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = open(os.path.join(REPO, "Tests", "WebXR", "xr-runtime.js")).read()
EXAMPLE = os.path.join(REPO, "..", "shared", "corpus", "iarvis", "environments", "example1.json")
PASSWORD = "a long enough password"
VIEW, RATIO, FOV_Y = (360, 780), 2, 60.0
check = Checks()
errors, outside = [], []

# --- 3D: the contract's placement rules, recomputed independently of the page -----------------


def column_major(values):
    """A 4×4 numpy matrix from 16 numbers in WebGL's column-major order."""
    return np.array(values, float).reshape(4, 4).T


def quaternion_matrix(q):
    x, y, z, w = np.array(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def basis_quaternion(rotation):
    """The unit quaternion [x, y, z, w] of a 3×3 rotation matrix."""
    m = rotation
    w = np.sqrt(max(0.0, 1 + m[0, 0] + m[1, 1] + m[2, 2])) / 2
    x = np.copysign(np.sqrt(max(0.0, 1 + m[0, 0] - m[1, 1] - m[2, 2])) / 2, m[2, 1] - m[1, 2])
    y = np.copysign(np.sqrt(max(0.0, 1 - m[0, 0] + m[1, 1] - m[2, 2])) / 2, m[0, 2] - m[2, 0])
    z = np.copysign(np.sqrt(max(0.0, 1 - m[0, 0] - m[1, 1] + m[2, 2])) / 2, m[1, 0] - m[0, 1])
    q = np.array([x, y, z, w])
    return (q / np.linalg.norm(q)).tolist()


def pose_matrix(pose):
    """The 4×4 of {position, orientation}."""
    m = np.eye(4)
    m[:3, :3] = quaternion_matrix(pose["orientation"])
    m[:3, 3] = pose["position"]
    return m


def frame_matrix(x, y, z, origin):
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = x, y, z, origin
    return m


def unit(v):
    return np.array(v, float) / np.linalg.norm(v)


def look(eye, target):
    """A viewer pose at `eye` whose −Z looks at `target`, its +X level."""
    z = -unit(np.subtract(target, eye))
    x = unit(np.cross([0, 1, 0], z))
    return {"position": [float(v) for v in eye], "orientation": basis_quaternion(np.column_stack([x, np.cross(z, x), z]))}


def rotation_x(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def rotation_y(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]])


def translation(p):
    m = np.eye(4)
    m[:3, 3] = p
    return m


def pose_error(actual, expected):
    """(millimetres, degrees) between two poses' origins and rotations (columns normalised)."""
    mm = np.linalg.norm(actual[:3, 3] - expected[:3, 3]) * 1000
    a = actual[:3, :3] / np.linalg.norm(actual[:3, :3], axis=0)
    b = expected[:3, :3] / np.linalg.norm(expected[:3, :3], axis=0)
    cosine = np.clip((np.trace(a.T @ b) - 1) / 2, -1, 1)
    return mm, np.degrees(np.arccos(cosine))


# The scripted room: a floor (y = 0, facing up) and a wall (z = −2, facing +z).
PLANES = [(np.zeros(3), np.array([0.0, 1, 0])), (np.array([0.0, 0, -2]), np.array([0.0, 0, 1]))]


def first_hit(origin, direction):
    """Where a ray first meets the floor or the wall: (point, normal), or None."""
    best = None
    d = unit(direction)
    for point, normal in PLANES:
        denominator = normal @ d
        if abs(denominator) < 1e-12:
            continue
        t = normal @ (point - origin) / denominator
        if t > 1e-9 and (best is None or t < best[0]):
            best = (t, origin + t * d, normal)
    return None if best is None else (best[1], best[2])


def centre_hit(viewer):
    """The hit of the ray through the view's centre (the viewer's −Z)."""
    m = pose_matrix(viewer)
    return first_hit(m[:3, 3], -m[:3, 2])


def world_placement(hit, viewer_position):
    """translation(H) × rotationY(θ), θ = atan2(vx − hx, vz − hz)."""
    theta = np.arctan2(viewer_position[0] - hit[0], viewer_position[2] - hit[2])
    return translation(hit) @ rotation_y(theta)


def image_on_hit(point, normal, viewer_position):
    """The image frame a tap puts on a hit (+Y the normal, +Z the picture's down, +X = Y × Z)."""
    y = unit(normal)
    along = lambda v: np.asarray(v, float) - y * (y @ np.asarray(v, float))  # noqa: E731
    down = along([0, -1, 0]) if abs(y[1]) < 0.7 else along(np.subtract(viewer_position, point))
    z = unit(down)
    return frame_matrix(np.cross(y, z), y, z, point)


def quad_frame(image):
    """The scene's quad frame of an image pose: image × rotationX(−90°)."""
    return image @ rotation_x(-np.pi / 2)


def scene_nodes(document):
    return {node["id"]: node for node in document["nodes"]}


def root_of(nodes, node_id):
    node = nodes[node_id]
    while node["kind"] != "target" and node.get("parent") in nodes:
        node = nodes[node["parent"]]
    return node["id"] if node["kind"] == "target" else None


def expected_quads(nodes, placements):
    """quad = placements[t] × inverse(scene(t)) × scene(q) for each quad whose target is placed."""
    out = {}
    for node_id, node in nodes.items():
        if node["kind"] not in ("widget", "annotation") or "size" not in node:
            continue
        target = root_of(nodes, node_id)
        if target in placements:
            out[node_id] = placements[target] @ np.linalg.inv(column_major(nodes[target]["transform"])) @ column_major(node["transform"])
    return out


def world_placements(nodes, world):
    """Every target of a world-placed scene: world × scene(target)."""
    return {node_id: world @ column_major(node["transform"]) for node_id, node in nodes.items() if node["kind"] == "target"}


# --- Specs --------------------------------------------------------------------------------------


def percent(text):
    """iARVis's percent-encoding: only ASCII letters and digits stay."""
    return "".join(c if c.isascii() and c.isalnum() else "".join(f"%{b:02X}" for b in c.encode()) for c in text)


def widget(position, size, component):
    return {"widgetConfiguration": {"relativeAnchorPoint": "center", "relativePosition": position, "size": size, "component": component}}


def text(content, size=44):
    return {"text": {"content": content, "fontStyle": {"size": size}}}


def world_spec(desk=("**Desk** — ask here", "Tickets and maps")):
    """A world-anchors environment: a segmented control and a link (lobby), two plain texts (desk).
    relativePosition [x, y, z] lands at (x, −z, y) in the anchor's frame."""
    child = {"vStack": {"alignment": "leading", "elements": [text("**The gate**", 56), text("Opened in 1911, restored in 2004.", 36)]}}
    link = "iARVis://openComponent?json=" + percent(json.dumps(child)) + "&anchor=trailing"
    tabs = {"segmentedControl": {"items": [{"title": "Visitors", "component": text("**1 200** visitors a day", 48)},
                                           {"title": "Hours", "component": text("Open 9:00 to 18:00", 48)}]}}
    return {"worldAnchors": [
        {"id": "lobby", "position": [0, 0, 0], "rotation": [0, 0, 0, 1], "relationships": [
            widget([-0.22, 0, -1.35], [800, 500], tabs),
            widget([0.25, 0, -1.35], [700, 400], text(f"See [the gate]({link}) and its story", 52))]},
        {"id": "desk", "position": [-1, 0, -0.6], "rotation": [0, 0.38268343, 0, 0.92387953], "relationships": [
            widget([0, 0, -1.3], [600, 300], text(desk[0], 56)),
            widget([0, 0, -0.95], [600, 300], text(desk[1], 56))]}]}


def crowd_spec(count=50):
    """A world anchor with `count` text widgets on a 10-wide grid."""
    items = [widget([-0.9 + 0.2 * (i % 10), 0, -0.9 - 0.12 * (i // 10)], [400, 200], text(f"**Item {i + 1}** of {count}", 40)) for i in range(count)]
    return {"worldAnchors": [{"id": "hall", "position": [0, 0, 0], "relationships": items}]}


def png_bytes(rgba):
    """A PNG of an H×W×4 (RGBA) or H×W×3 (RGB) uint8 array, top row first (zlib only)."""
    height, width, channels = rgba.shape
    raw = b"".join(b"\x00" + rgba[row].tobytes() for row in range(height))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def target_picture():
    """A 96-pixel picture for the image target (quadrants and a diagonal), as a data: URL."""
    y, x = np.mgrid[0:96, 0:96]
    rgb = np.zeros((96, 96, 3), np.uint8)
    rgb[..., 0] = np.where(x < 48, 220, 30)
    rgb[..., 1] = np.where(y < 48, 200, 60)
    rgb[..., 2] = np.where(abs(x - y) < 6, 255, 90)
    return "data:image/png;base64," + base64.b64encode(png_bytes(rgb)).decode()


def validate(spec, name):
    """Runs `arvis validate` on the spec; True when it is clean of errors."""
    path = os.path.join(tempfile.mkdtemp(), name + ".json")
    with open(path, "w") as handle:
        json.dump(spec, handle, indent=2)
    result = subprocess.run([ARVIS, "validate", path], capture_output=True, text=True)
    return check(f"{name}: arvis validate accepts the spec", result.returncode == 0, result.stdout[-400:])


# --- The server ---------------------------------------------------------------------------------


def put_spec(base, token, project, name, spec, etag=None):
    """Saves a version; its SavedVersion ({version, etag})."""
    return call(base, "PUT", f"/api/v1/projects/{project}/specs/{name}", json.dumps(spec, indent=2).encode(), token, headers={"If-Match": etag} if etag else None)


def api_error(base, method, path, body=None):
    """(status, JSON body) of a call expected to fail."""
    try:
        call(base, method, path, body)
        return 200, None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def account(base, username, owner_token=None, project=None, role=None):
    """Signs a new account up (and adds it to `project` as `role`); its bearer token."""
    call(base, "POST", "/api/v1/accounts", {"username": username, "password": PASSWORD})
    if owner_token:
        call(base, "PUT", f"/api/v1/projects/{project}/members/{username}", {"role": role}, owner_token)
    return call(base, "POST", "/api/v1/sessions", {"username": username, "password": PASSWORD})["token"]


# --- Browsers -----------------------------------------------------------------------------------


def watch(page):
    """Collects the page's console errors and uncaught exceptions."""
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return page


def guard(context, port):
    """Records every request a context makes anywhere but the server."""
    allowed = (f"http://127.0.0.1:{port}/", f"ws://127.0.0.1:{port}/", "data:", "blob:")
    context.on("request", lambda request: None if request.url.startswith(allowed) else outside.append(request.url))
    return context


def phone(browser, port, url, **config):
    """A phone (360 × 780 points, 2 pixels a point) with the scripted runtime, on `url`."""
    context = guard(browser.new_context(viewport={"width": VIEW[0], "height": VIEW[1]}, device_scale_factor=RATIO, is_mobile=True, has_touch=True), port)
    settings = {"viewport": list(VIEW), "pixelRatio": RATIO, "fovY": FOV_Y, **config}
    context.add_init_script(RUNTIME + f"\n;window.__xr.configure({json.dumps(settings)});")
    page = watch(context.new_page())
    page.goto(url)
    return page


def signed_in(browser, port, token):
    """A desktop browser signed in to the Studio with `token`."""
    context = guard(browser.new_context(viewport={"width": 1280, "height": 900}), port)
    context.add_init_script(f"if (window === window.top) localStorage.setItem('arvis.token', {json.dumps(token)})")
    return watch(context.new_page())


def frames(page, count=1):
    """Runs `count` XR frames; the milliseconds the page's callbacks took in each."""
    return page.evaluate(f"() => Array.from({{length: {count}}}, () => __xr.frame())")


def set_viewer(page, viewer, count=2):
    page.evaluate("(pose) => __xr.setViewer(pose)", viewer)
    frames(page, count)


def state(page):
    return page.evaluate("window.arvisXR.state")


def enter_ar(page, viewer):
    """Enter AR, aiming as `viewer`; True once the page is placing (with one frame drawn)."""
    page.evaluate("(pose) => __xr.setViewer(pose)", viewer)
    page.click("#ar-enter")
    placing = wait_for(page, "window.arvisXR.state === 'placing' && window.__xr.session && 'ok'", 20) == "ok"
    frames(page, 2)
    return placing


def tap(page, x, y, count=2):
    """A tap at CSS pixel (x, y), then `count` frames (a placement is made in the next frame)."""
    answer = page.evaluate(f"__xr.tap({x}, {y})")
    frames(page, count)
    return answer


def quads(page):
    return {quad["id"]: quad for quad in page.evaluate("window.arvisXR.quads()")}


def textures_ready(page, timeout=30):
    script = "window.arvisXR.quads().length > 0 && window.arvisXR.quads().every((q) => q.texture !== 'loading') && 'ok'"
    ready = wait_for(page, script, timeout) == "ok"
    frames(page, 2)
    return ready


def view_of(page):
    """The view as the runtime projects it: projection and view matrices (numpy), framebuffer size."""
    view = page.evaluate("__xr.projection()")
    view["P"], view["V"] = column_major(view["matrix"]), column_major(view["viewMatrix"])
    return view


def project(view, point):
    """A room point's framebuffer pixel (x right, y down from the top), or None behind the viewer."""
    clip = view["P"] @ view["V"] @ np.append(point, 1.0)
    if clip[3] <= 1e-9:
        return None
    width, height = view["viewport"]["width"], view["viewport"]["height"]
    return np.array([(clip[0] / clip[3] + 1) / 2 * width, (1 - clip[1] / clip[3]) / 2 * height])


def framebuffer(page):
    """The layer's framebuffer as an H×W×4 array, top row first (premultiplied RGBA)."""
    read = page.evaluate("() => { const l = __xr.projection().viewport; return __xr.readPixels(0, 0, l.width, l.height, 'base64'); }")
    pixels = np.frombuffer(base64.b64decode(read["data"]), np.uint8).reshape(read["height"], read["width"], 4)
    return pixels[::-1].copy()


def screenshot(pixels, name):
    """Writes the framebuffer over a grey 'camera', as SCREENSHOTS/NAME.png."""
    if not SHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    alpha = pixels[..., 3:4] / 255.0
    rgb = np.clip(pixels[..., :3] + (1 - alpha) * 96, 0, 255).astype(np.uint8)
    with open(os.path.join(SHOTS, name + ".png"), "wb") as handle:
        handle.write(png_bytes(rgb))


def close_up(quad, fill=0.8):
    """A viewer in front of a quad (along its +Z), far enough that it fills `fill` of the view."""
    m = column_major(quad["matrix"])
    t = np.tan(np.radians(FOV_Y) / 2)
    width, height = quad["size"]
    distance = max(width / (fill * 2 * t * VIEW[0] / VIEW[1]), height / (fill * 2 * t))
    return look(m[:3, 3] + unit(m[:3, 2]) * distance, m[:3, 3])


# --- Pixels -------------------------------------------------------------------------------------


def bilinear(image, x, y):
    """`image` (H×W×C float) sampled at pixel coordinates (x, y) of pixel centres."""
    height, width = image.shape[:2]
    x = np.clip(x - 0.5, 0, width - 1.001)
    y = np.clip(y - 0.5, 0, height - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def premultiplied(png, size):
    """A widget PNG, premultiplied and box-filtered down to `size` (w, h) pixels, as floats."""
    image = Image.open(io.BytesIO(png)).convert("RGBA").resize((max(1, int(size[0])), max(1, int(size[1]))), Image.BOX)
    pixels = np.asarray(image, float)
    pixels[..., :3] *= pixels[..., 3:4] / 255
    return pixels


def texture_match(view, pixels, quad, png, grid=(40, 28)):
    """How well the framebuffer shows `png` on `quad`: (normalised cross-correlation of luminance,
    mean absolute RGB difference), over a grid of points inside the quad, each projected with the
    view's projection and compared with the PNG at the same UV."""
    m, (width, height) = column_major(quad["matrix"]), quad["size"]
    u, v = np.meshgrid(np.linspace(0.08, 0.92, grid[0]), np.linspace(0.08, 0.92, grid[1]))
    local = np.stack([(u - 0.5) * width, (0.5 - v) * height, np.zeros_like(u), np.ones_like(u)], -1)
    clip = (view["P"] @ view["V"] @ m @ local.reshape(-1, 4).T).T
    fb_w, fb_h = view["viewport"]["width"], view["viewport"]["height"]
    x, y = (clip[:, 0] / clip[:, 3] + 1) / 2 * fb_w, (1 - clip[:, 1] / clip[:, 3]) / 2 * fb_h
    if clip[:, 3].min() <= 0 or x.min() < 0 or y.min() < 0 or x.max() > fb_w or y.max() > fb_h:
        return -1.0, 255.0
    left, right = project(view, (m @ [-width / 2, 0, 0, 1])[:3]), project(view, (m @ [width / 2, 0, 0, 1])[:3])
    bottom, top = project(view, (m @ [0, -height / 2, 0, 1])[:3]), project(view, (m @ [0, height / 2, 0, 1])[:3])
    texture = premultiplied(png, (np.linalg.norm(right - left), np.linalg.norm(top - bottom)))
    drawn = bilinear(pixels[..., :3].astype(float), x, y)
    expected = bilinear(texture[..., :3], u.ravel() * texture.shape[1], v.ravel() * texture.shape[0])
    luminance = lambda rgb: rgb @ [0.299, 0.587, 0.114]  # noqa: E731
    a, b = luminance(drawn) - luminance(drawn).mean(), luminance(expected) - luminance(expected).mean()
    ncc = float(a @ b / max(1e-9, np.sqrt((a @ a) * (b @ b))))
    return ncc, float(np.abs(drawn - expected).mean())


def magenta_centre(pixels):
    """The centre (x, y, top-down pixels) of the #ff00ff marker's pixels, or None."""
    r, g, b, a = (pixels[..., k].astype(int) for k in range(4))
    mask = (r > 200) & (g < 70) & (b > 200) & (a > 200)
    if mask.sum() < 4:
        return None
    ys, xs = np.nonzero(mask)
    return np.array([xs.mean() + 0.5, ys.mean() + 0.5])


def fetch_png(base, page, quad_id):
    """The PNG of the widget's texture the page fetched last (the same URL, so the same scale and version)."""
    url = page.evaluate(f"window.arvisXR.textureRequests.filter((r) => r.id === {json.dumps(quad_id)}).map((r) => r.url).pop()")
    return call(base, "GET", url) if url else None


# --- The checks ---------------------------------------------------------------------------------


def check_placement(page, label, nodes, placements):
    """Every quad the page shows is where the contract puts it (1 mm, 0.1°), and no quad is missing."""
    expected, shown = expected_quads(nodes, placements), quads(page)
    worst = (0.0, 0.0)
    missing = [node_id for node_id in expected if node_id not in shown]
    for node_id, matrix in expected.items():
        if node_id in shown:
            mm, degrees = pose_error(column_major(shown[node_id]["matrix"]), matrix)
            worst = (max(worst[0], mm), max(worst[1], degrees))
    sizes = all(np.allclose(shown[i]["size"], nodes[i]["size"], atol=1e-6) for i in expected if i in shown)
    check(f"{label}: all {len(expected)} quads at the contract's placement of scene.json (worst {worst[0]:.3f} mm, {worst[1]:.4f}°)",
          bool(expected) and not missing and worst[0] <= 1 and worst[1] <= 0.1 and sizes, f"missing {missing}, sizes {sizes}")
    reported = page.evaluate("window.arvisXR.placements")
    wrong = [t for t, matrix in placements.items() if t not in reported or max(pose_error(column_major(reported[t]), matrix)) > 1e-1]
    check(f"{label}: arvisXR.placements gives each target its pose", not wrong, wrong)
    return shown


def check_textures(page, base, label, ids, shot=None):
    """From a close-up of each quad, the framebuffer shows its widget PNG where the projection says."""
    scores = {}
    shown = quads(page)
    for quad_id in ids:
        set_viewer(page, close_up(shown[quad_id]))
        view, pixels = view_of(page), framebuffer(page)
        png = fetch_png(base, page, quad_id)
        scores[quad_id] = texture_match(view, pixels, shown[quad_id], png) if png else (-1, 255)
        if shot:
            screenshot(pixels, f"{shot}-{quad_id}")
    good = {k: v for k, v in scores.items() if v[0] >= 0.8 and v[1] <= 30}
    detail = ", ".join(f"{k}: ncc {v[0]:.2f}, mad {v[1]:.1f}" for k, v in scores.items())
    check(f"{label}: each widget's texture is drawn where its projection says ({detail})", len(good) == len(ids), detail)
    return scores


def widget_link_uv(browser, base, path, selector):
    """Where, in a widget's page, the element `selector` sits: (u, v) of its centre in the widget's picture."""
    page = browser.new_page(viewport={"width": 1024, "height": 1024})
    page.goto(base + path)
    box = page.evaluate(f"""() => {{ const svg = document.querySelector('main svg').getBoundingClientRect();
        const e = document.querySelectorAll({json.dumps(selector)});
        if (!e.length) return null; const r = e[e.length - 1].getBoundingClientRect();
        return [(r.left + r.width / 2 - svg.left) / svg.width, (r.top + r.height / 2 - svg.top) / svg.height]; }}""")
    page.close()
    return box


def tap_on_quad(page, quad, uv):
    """Taps the view where point (u, v) of a quad is seen (u right, v down, 0…1)."""
    m, (width, height) = column_major(quad["matrix"]), quad["size"]
    point = (m @ [(uv[0] - 0.5) * width, (0.5 - uv[1]) * height, 0, 1])[:3]
    at = project(view_of(page), point) / RATIO
    return tap(page, float(at[0]), float(at[1]))


def check_segmented(page, browser, base, spec_path, quad_id):
    """A tap on the segmented control's second segment opens the widget's page in #ar-panel, that segment chosen."""
    uv = widget_link_uv(browser, base, f"{spec_path}/widgets/{quad_id}.html", ".arvis-segment-button")
    set_viewer(page, close_up(quads(page)[quad_id], 0.6))
    tap_on_quad(page, quads(page)[quad_id], uv)
    opened = wait_for(page, "!document.getElementById('ar-panel').hidden && getComputedStyle(document.getElementById('ar-panel')).visibility === 'visible' && window.arvisXR.panel", 10)
    check(f"a tap on {quad_id}'s segmented control opens #ar-panel with its page", opened == quad_id, opened)
    frame = page.frame_locator("#ar-panel-frame")
    chosen = frame.locator(".arvis-segment[data-index='1']").get_attribute("display", timeout=5000) if opened else "none"
    check("and the tapped segment is shown in it", chosen is None, chosen)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "ar-panel.png"))
    page.click("#ar-panel-close")
    closed = wait_for(page, "document.getElementById('ar-panel').hidden && window.arvisXR.panel === null && 'ok'", 5)
    check("#ar-panel-close closes it", closed == "ok")
    frames(page, 2)


def check_link(page, browser, base, spec_path, quad_id, placements, label):
    """A tap on the openComponent link's text shows its child quad where scene.json?links=open puts it."""
    uv = widget_link_uv(browser, base, f"{spec_path}/widgets/{quad_id}.html", "a.arvis-open")
    if not check(f"{label}: the widget's page has the link", uv is not None):
        return
    before = set(quads(page))
    set_viewer(page, close_up(quads(page)[quad_id], 0.6))
    tap_on_quad(page, quads(page)[quad_id], uv)
    child = wait_for(page, f"window.arvisXR.quads().map((q) => q.id).find((id) => !{json.dumps(sorted(before))}.includes(id))", 10)
    frames(page, 2)
    opened = scene_nodes(call(base, "GET", f"{spec_path}/scene.json?links=open"))
    expected = expected_quads(opened, placements)
    check(f"{label}: tapping the link shows a child quad from scene.json?links=open ({child})", bool(child) and child in expected and opened[child].get("parent") == quad_id, child)
    if child in expected:
        mm, degrees = pose_error(column_major(quads(page)[child]["matrix"]), expected[child])
        check(f"{label}: the child quad is where scene.json?links=open puts it ({mm:.3f} mm, {degrees:.4f}°)", mm <= 1 and degrees <= 0.1)
    return child


def first_entry(page, nodes, label):
    """Enter AR, the reticle on the floor, a tap: placed. The expected world placement."""
    viewer = look([0.45, 1.55, 1.7], [0.1, 0.0, -0.35])
    check(f"{label}: the page says Enter AR is available", page.evaluate("window.arvisXR.mode") == "webxr" and page.is_visible("#ar-enter"),
          page.locator("#ar-mode").inner_text())
    check(f"{label}: entering AR, the page is placing", enter_ar(page, viewer), state(page))
    hit, _ = centre_hit(viewer)
    view, pixels = view_of(page), framebuffer(page)
    screenshot(pixels, f"{label}-reticle")
    at = project(view, hit).astype(int)
    patch = pixels[at[1] - 5:at[1] + 6, at[0] - 5:at[0] + 6]
    check(f"{label}: the reticle is drawn where the view's centre meets the floor", ((patch[..., :3].min(-1) > 180) & (patch[..., 3] > 180)).any())
    tap(page, VIEW[0] / 2, VIEW[1] / 2)
    check(f"{label}: a tap places the environment", wait_for(page, "window.arvisXR.state === 'placed' && 'ok'", 5) == "ok", state(page))
    return world_placements(nodes, world_placement(hit, viewer["position"]))


def check_live_edits(page, studio, base, token, project, name, spec_path):
    """A Studio save and ten API saves: each swaps only the changed widget's texture, in the same session."""
    ids = sorted(quads(page))
    requested = lambda: page.evaluate("window.arvisXR.textureRequests.map((r) => r.id)")  # noqa: E731
    before, sessions = requested(), page.evaluate("__xr.sessionCount")
    shown = quads(page)
    set_viewer(page, close_up(shown["world-desk-widget1"]))
    old_png = fetch_png(base, page, "world-desk-widget1")
    page.evaluate("__xr.autoFrames(true)")
    studio.goto(base + f"/#/p/{project}/specs/{name}")
    studio.wait_for_selector(".code textarea")
    studio.locator(".code textarea").fill(json.dumps(world_spec(("**Desk** — closed today", "Tickets and maps")), indent=2) + "\n")
    studio.click("#save")
    studio.wait_for_selector("#save-status:has-text('Version 2')")
    started = studio.evaluate("window.studioSaved.started")
    update = wait_for(page, "window.arvisXR.textureUpdates.find((u) => u.id === 'world-desk-widget1' && u.version == 2)", 5)
    delay = update["at"] - started if update else float("inf")
    check(f"a save in Studio reaches AR within 1 s ({delay:.0f} ms)", delay <= 1000)
    page.evaluate("__xr.autoFrames(false)")
    frames(page, 2)
    view, pixels = view_of(page), framebuffer(page)
    screenshot(pixels, "world-after-studio-save")
    new_png = fetch_png(base, page, "world-desk-widget1")
    now, then = texture_match(view, pixels, quads(page)["world-desk-widget1"], new_png), texture_match(view, pixels, quads(page)["world-desk-widget1"], old_png)
    check(f"the changed widget's texture changed in the framebuffer (ncc new {now[0]:.2f}, old {then[0]:.2f})", now[0] >= 0.8 and now[0] > then[0] + 0.05)
    delays = api_edits(page, base, token, project, name)
    median = sorted(delays)[len(delays) // 2]
    check(f"ten API saves reach AR, each within 1 s (median {median:.0f} ms, worst {max(delays):.0f} ms)", max(delays) <= 1000, [round(d) for d in delays])
    print(f"RESULT webxr_save_to_ar_ms {median:.0f} ms")
    again = [i for i in requested()[len(before):] if i not in ("world-desk-widget1", "world-desk-widget2")]
    check("unchanged widgets' textures are not requested again", not again, again)
    check("the edits arrive in the same session, still placed", page.evaluate("__xr.sessionCount") == sessions and state(page) == "placed"
          and sorted(quads(page)) == ids, state(page))
    check("arvisXR.version follows the saves", page.evaluate("window.arvisXR.version") == 12)


def api_edits(page, base, token, project, name, count=10):
    """`count` saves through the API with If-Match, each changing one desk text; their delays to AR (ms)."""
    page.evaluate("__xr.autoFrames(true)")
    etag = call(base, "GET", f"/api/v1/projects/{project}/specs/{name}/versions", token=token)
    etag = etag_of(base, f"/api/v1/projects/{project}/specs/{name}", token)
    delays = []
    for index in range(count):
        texts = [f"**Desk** — edit {index + 1}", "Tickets and maps"] if index % 2 == 0 else ["**Desk** — closed today", f"Tickets, edit {index + 1}"]
        changed = "world-desk-widget1" if index % 2 == 0 else "world-desk-widget2"
        started = time.time() * 1000
        saved = put_spec(base, token, project, name, world_spec(texts), etag)
        update = wait_for(page, f"window.arvisXR.textureUpdates.find((u) => u.id === '{changed}' && u.version == {saved['version']})", 5)
        delays.append(update["at"] - started if update else float("inf"))
        etag = saved["etag"]
    page.evaluate("__xr.autoFrames(false)")
    return delays


def etag_of(base, path, token):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers["ETag"]
