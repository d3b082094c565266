"""Live video in rooms, end to end (issue 28): a phone shares its view — the scripted WebXR runtime
moving its viewer continuously, Chromium's fake camera as its camera — and experts watch it in
ARVis Studio in other browsers: peer to peer, through coturn (--relay-only), and through Janus
(--sfu) to five experts at once.

Usage: python3 Scripts/check_video.py ARVIS [--database postgres://…]

Checked:
- frame exactness: for at least 300 consecutive frames the expert's page shows, the counter read
  from the picture's own pixels (the frame tag the publisher drew) equals the counter in the
  metadata that travelled with that frame; 0 mismatches;
- annotation accuracy: a click on the video lands within 1 cm of where the ray from the shown
  frame's own pose meets the floor, and the same click judged with the pose that had arrived over
  the room's socket at the moment of the click ("annotate now") is measurably worse;
- the annotation reaches the phone and a second expert; a frozen frame is annotated with its pose;
- the phone stopping and sharing again, a late expert (video within 2 s), a non-member refused,
  a malformed offer refused while the video goes on; no console error; nothing leaves the machine;
- the pages' frame readers, stopped while frames flow and their tracks after, leave no VideoFrame
  unclosed (Chromium says so on the console after a garbage collection finds one);
- with camera-access granted, the phone sends the AR session's own camera images, each with its
  XR frame's pose: exact frames, clicks within 1 cm;
- a computer's camera shared from Studio, without a pose: its frames exact, and a click on it
  marks the picture for every member;
- through Janus: the phone sends its camera once, and each of five experts shows exact frames,
  glass to glass p95 within 200 ms;
- with --database, across instances: the phone on one `arvis serve`, the expert on another on the
  same PostgreSQL, the signalling crossing through it; exact frames, and a click reaching the phone.

Prints `N passed, N failed` and RESULT lines: video_metadata_mismatches, video_glass_to_glass_p95_ms
(and the same as video_relay_… and video_sfu_…),
video_annotation_error_mm, video_annotate_now_error_mm, video_tap_to_device_p99_ms,
video_late_join_ms.
"""
import base64
import contextlib
import json
import os
import shutil
import struct
import sys
import time
import zlib

import numpy as np

# --database is this check's own option: check_webxr, imported below, reads the rest of argv.
DATABASE = sys.argv.pop(sys.argv.index("--database") + 1) if "--database" in sys.argv[:-1] else None
if "--database" in sys.argv:
    sys.argv.remove("--database")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_webxr as xr  # noqa: E402  (its phone, accounts and Studio helpers; it reads the same argv)
from checking import call, free_port, served, wait_for  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

ARVIS = sys.argv[1]
check = xr.check
# Chromium 156 gives every window two renderers for its omnibox popup (WebUI), each taking 5–30 % of
# a core here: six windows share these two cores, and no page uses an omnibox. (One
# --disable-features: Chromium takes the last one given.)
MEDIA_FLAGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
               "--disable-features=WebRtcHideLocalIpsWithMdns,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
               "--enable-unsafe-swiftshader", "--use-angle=swiftshader"]

# The phone's scripted walk: 1.4 m up, looking 34° down, swaying 0.6 m sideways every 5 s and
# turning ±14° every 3.3 s — always moving, as a hand-held phone is. Its XR frames run at 30 Hz:
# this machine draws them in software (SwiftShader) on the 2 cores the experts' browsers share.
MOTION = """(() => {
  const start = performance.now();
  const pose = (t) => {
    const yaw = 0.25 * Math.sin(2 * Math.PI * t / 3.3), pitch = -0.6;
    const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
    return { position: [0.6 * Math.sin(2 * Math.PI * t / 5), 1.4, 1.5 + 0.3 * Math.cos(2 * Math.PI * t / 5)],
             orientation: [cy * sp, sy * cp, -sy * sp, cy * cp] };
  };
  __xr.autoFrames(false);
  window.__walking = setInterval(() => { __xr.setViewer(pose((performance.now() - start) / 1000)); __xr.frame(); }, 1000 / 30);
})()"""


# The pages' frame readers and writers (media/frame-stream.js) against a live track: `rounds`
# readers, each stopped while frames flow and its track stopped after (writes then refused); or
# ("leak") one VideoFrame dropped unclosed on purpose. Returns the frames read.
FRAME_ROUNDS = """async ([mode, rounds]) => {
  const { readFrames, writeFrame } = await import("/media/frame-stream.js");
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const canvas = new OffscreenCanvas(64, 48);
  canvas.getContext("2d").fillRect(0, 0, 8, 8);
  if (mode === "leak") { new VideoFrame(canvas, { timestamp: 0 }); return 0; }
  let read = 0;
  for (let round = 0; round < rounds; round++) {
    const track = new MediaStreamTrackGenerator({ kind: "video" }), writer = track.writable.getWriter();
    let flowing = true, time = 0;
    const flow = (async () => {
      while (flowing) { await writeFrame(writer, new VideoFrame(canvas, { timestamp: 1000 * time++ })).catch(() => {}); await pause(1); }
    })();
    const frames = readFrames(track, () => { read += 1; }, { maxBufferSize: 1 });
    await pause(20 + 10 * Math.random());
    await frames.stop();
    track.stop();
    await pause(5);
    flowing = false;
    await flow;
  }
  return read;
}"""

def decode_packet(text):
    """A Base64 pose packet: {viewport, frame, position, orientation, intrinsics}."""
    packet = base64.b64decode(text)
    fields = struct.unpack("<BBHHIdffffffffffI", packet)
    x, y, z = fields[9:12]
    assert fields[16] == zlib.crc32(packet[:58]) & 0xFFFFFFFF
    return {"viewport": fields[2:4], "frame": fields[4], "position": np.array(fields[6:9]), "intrinsics": np.array(fields[12:16]),
            "orientation": np.array([x, y, z, np.sqrt(max(0.0, 1 - x * x - y * y - z * z))])}


def rotate(q, v):
    """v turned by the unit quaternion q (x, y, z, w)."""
    u, w = np.array(q[:3]), q[3]
    return v + 2 * w * np.cross(u, v) + 2 * np.cross(u, np.cross(u, v))


def floor_hit(position, orientation, intrinsics, viewport, tap):
    """Where the ray through tap (0…1 of the picture) of a camera meets the floor y = 0."""
    fx, fy, cx, cy = intrinsics
    px, py = tap[0] * viewport[0], tap[1] * viewport[1]
    direction = rotate(orientation, np.array([(px - cx) / fx, -(py - cy) / fy, -1.0]))
    t = -position[1] / direction[1]
    return np.array(position) + t * direction


def percentile(values, p):
    return float(np.percentile(np.array(values, float), p)) if values else float("inf")


def check_frame_stream(launch, base, rounds=150):
    """Readers stopped while frames flow, and their tracks after, leave no VideoFrame unclosed.
    Chromium says "A VideoFrame was garbage collected without being closed" on the console 10 s
    after a garbage collection finds one (a CI run failed on it); a page that drops one on purpose
    shows this check would see it."""
    browser = launch("--js-flags=--expose-gc")
    pages, said = {}, {}
    for mode in ("leak", "stop"):
        pages[mode], said[mode] = browser.new_page(), []
        pages[mode].on("console", lambda message, mode=mode: said[mode].append(message.text))
        pages[mode].goto(base + "/")
    read = pages["stop"].evaluate(FRAME_ROUNDS, ["stop", rounds])
    pages["leak"].evaluate(FRAME_ROUNDS, ["leak", 0])
    # Two collections (the first may find the frames still held by the evaluation's promise), then
    # the console's 10 s, until the dropped frame is said. (Playwright hands on console messages
    # only while it is called: so its own waits, not time.sleep.)
    for _ in range(2):
        for page in pages.values():
            page.evaluate("gc()")
        pages["stop"].wait_for_timeout(300)
    deadline = time.time() + 15
    while time.time() < deadline and not any("garbage collected" in text for text in said["leak"]):
        pages["leak"].wait_for_timeout(500)
    pages["stop"].wait_for_timeout(1000)
    unclosed = {mode: sum("garbage collected without being closed" in text for text in said[mode]) for mode in pages}
    check(f"a VideoFrame dropped unclosed on purpose is said on the console ({unclosed['leak']})", unclosed["leak"] > 0, said["leak"][:3])
    check(f"{rounds} frame readers stopped while frames flowed, their tracks after: no frame left unclosed ({read} frames read)",
          unclosed["stop"] == 0 and read > rounds, said["stop"][:3])
    browser.close()

def studio(desk, port, base, username, room="main"):
    """A Studio room page, signed in as `username`."""
    page = xr.signed_in(desk, port, base, username)
    page.goto(base + f"/#/p/garage/rooms/{room}")
    page.wait_for_selector("canvas.room-camera")
    return page


def video_stats(page):
    return page.evaluate("window.studioRoom && window.studioRoom.video && {shown: window.studioRoom.video.shown, withPose: window.studioRoom.video.withPose,"
                         " tagged: window.studioRoom.video.tagged, mismatches: window.studioRoom.video.mismatches, state: window.studioRoom.videoState}")


def exactness(phone, expert, path):
    """Checks ≥ 300 consecutive shown frames whose pixel counter equals their metadata's; returns
    the mismatches and each matched frame's glass-to-glass milliseconds."""
    # Asked twice a second: the pages being measured share the machine with this script.
    shown = wait_for(expert, "window.studioRoom.video.recent.filter((r) => r[0] !== null && r[1] !== null).length >= 330 && window.studioRoom.video.recent.length", 60, every=0.5)
    recent = expert.evaluate("window.studioRoom.video.recent")
    sent = {entry[0]: entry for entry in phone.evaluate("window.arvisXR.share.videoLog.sent")}
    run, best, mismatches, latencies = 0, 0, 0, []
    for tag, counter, at, _ in recent:
        if tag is None or counter is None:
            run = 0
            continue
        run += 1
        best = max(best, run)
        mismatches += tag != counter
        if tag in sent:
            latencies.append(at - sent[tag][1])
    stats = video_stats(expert)
    check(f"{path}: the expert's page shows the phone's video ({stats})", bool(shown) and stats["shown"] > 0, stats)
    check(f"{path}: {best} consecutive frames shown with both a pixel counter and metadata (≥ 300)", best >= 300, best)
    check(f"{path}: each shown frame's pixel counter equals its metadata's ({mismatches} mismatches)", mismatches == 0 and stats["mismatches"] == 0, stats)
    check(f"{path}: shown frames carry the phone's pose ({stats['withPose']} of {stats['shown']})", stats["withPose"] >= 0.9 * stats["shown"], stats)
    return mismatches + stats["mismatches"], latencies


def report_exactness(path, name, target, mismatches, latencies):
    """The RESULT lines of one path: mismatched frames, and glass to glass at the 95th percentile."""
    print(f"RESULT {name}_metadata_mismatches {mismatches} frames")
    p95 = percentile(latencies, 95)
    check(f"{path}: glass to glass p95 {p95:.1f} ms over {len(latencies)} frames (≤ {target} ms)", p95 <= target, latencies[-10:])
    print(f"RESULT {name}_glass_to_glass_p95_ms {p95:.1f} ms")


def check_exactness(phone, expert, path="peer to peer", name="video", target=150):
    """One expert's frames exact, and its glass to glass within `target`."""
    report_exactness(path, name, target, *exactness(phone, expert, path))


def click_picture(expert, uv, label):
    """Clicks the expert's camera view at (u, v) of the picture shown (letterboxed in the canvas)."""
    expert.fill("input[name=annotation-text]", label)
    viewport = expert.evaluate("window.studioRoom.video.size")
    box = expert.locator("canvas.room-camera").bounding_box()
    scale = min(box["width"] / viewport[0], box["height"] / viewport[1])
    x = box["x"] + (box["width"] - viewport[0] * scale) / 2 + uv[0] * viewport[0] * scale
    y = box["y"] + (box["height"] - viewport[1] * scale) / 2 + uv[1] * viewport[1] * scale
    expert.mouse.click(x, y)


def picture_pixel(expert):
    """How many of the picture's pixels one screen pixel of the expert's camera view spans."""
    viewport = expert.evaluate("window.studioRoom.video.size")
    box = expert.locator("canvas.room-camera").bounding_box()
    return 1 / min(box["width"] / viewport[0], box["height"] / viewport[1])


def placed(expert, client_id, timeout=10):
    """The annotation the room sent back for the click `client_id`, as the expert's page lists it."""
    return wait_for(expert, f"window.studioRoom.placed && window.studioRoom.placed[{json.dumps(client_id)}]", timeout)


def click_errors(phone, expert, uvs):
    """Clicks each (u, v) of the moving video: the millimetres each annotation lands from where the
    ray from its shown frame's logged pose meets the floor, the same for 'annotate now' (the
    socket's latest pose at the click), the clicks, and each tap's distance from the point clicked
    in screen pixels."""
    sent = {entry[0]: entry for entry in phone.evaluate("window.arvisXR.share.videoLog.sent")}
    errors, naive, taps, tap_errors = [], [], [], []
    pixel = picture_pixel(expert)
    for index, uv in enumerate(uvs):
        before = len(expert.evaluate("window.studioRoom.sent"))
        click_picture(expert, uv, f"Bolt {index + 1}")
        click = wait_for(expert, f"window.studioRoom.sent.length > {before} && window.studioRoom.sent[{before}]", 5)
        if not check(f"click {index + 1} sends an annotation", bool(click)):
            continue
        annotation = placed(expert, click["clientId"])
        sent.update({entry[0]: entry for entry in phone.evaluate("window.arvisXR.share.videoLog.sent")})
        if not check(f"click {index + 1}'s annotation comes back, on a frame the phone logged", bool(annotation) and click["tag"] in sent
                     and sent[click["tag"]][2] is not None, (annotation, click["tag"])):
            continue
        # The page's tap is the point clicked, to within the click's own pixel (checked below); the
        # truth is the ray through that tap from the pose the phone logged for the pixel counter.
        frame = decode_packet(sent[click["tag"]][2])
        tap_errors.append(max(abs(click["tap"][0] - uv[0]) * frame["viewport"][0], abs(click["tap"][1] - uv[1]) * frame["viewport"][1]) / pixel)
        truth = floor_hit(frame["position"], frame["orientation"], frame["intrinsics"], frame["viewport"], click["tap"])
        latest = click["latest"]
        now = floor_hit(np.array(latest["position"]), np.array(latest["orientation"]), frame["intrinsics"], frame["viewport"], click["tap"])
        position = np.array([annotation["position"]["x"], annotation["position"].get("y", 0), annotation["position"]["z"]])
        errors.append(np.linalg.norm(position - truth) * 1000)
        naive.append(np.linalg.norm(now - truth) * 1000)
        taps.append(click)
        expert.wait_for_timeout(150)
    return errors, naive, taps, tap_errors


def check_annotations(phone, expert, second):
    """Clicks on the moving video: error against the shown frame's pose, and against 'annotate now'."""
    errors, naive, taps, tap_errors = click_errors(phone, expert, [(0.5, 0.6), (0.3, 0.75), (0.7, 0.5), (0.45, 0.85), (0.6, 0.65), (0.4, 0.55)])
    check(f"each click's tap is the point clicked, to within a screen pixel (worst {max(tap_errors, default=float('inf')):.2f} px)",
          len(tap_errors) == 6 and max(tap_errors) <= 1, tap_errors)
    worst, naive_mean = max(errors) if len(errors) == 6 else float("inf"), float(np.mean(naive)) if naive else 0.0
    check(f"each click lands where the ray from its shown frame's pose meets the floor (worst {worst:.2f} mm, ≤ 10)", worst <= 10, errors)
    check(f"'annotate now' (the socket's latest pose at the click) is measurably worse: {naive_mean:.1f} mm on average",
          naive_mean > max(5 * worst, 5), naive)
    print(f"RESULT video_annotation_error_mm {worst:.2f} mm")
    print(f"RESULT video_annotate_now_error_mm {naive_mean:.1f} mm")
    # 14 more clicks, for the time a tap takes to reach the phone (20 in all).
    for index in range(14):
        before = len(expert.evaluate("window.studioRoom.sent"))
        click_picture(expert, (0.35 + 0.02 * index, 0.7), f"Timing {index + 1}")
        click = wait_for(expert, f"window.studioRoom.sent.length > {before} && window.studioRoom.sent[{before}]", 5)
        if click and placed(expert, click["clientId"]):
            taps.append(click)
        expert.wait_for_timeout(100)
    arrivals = wait_for(phone, f"window.arvisXR.share.arrivals.length >= {len(taps)} && window.arvisXR.share.arrivals", 10) or []
    arrived = {client_id: at for client_id, at in arrivals}
    delays = [arrived[tap["clientId"]] - tap["at"] for tap in taps if tap["clientId"] in arrived]
    check(f"every annotation reaches the phone ({len(delays)} of {len(taps)}, 20 clicked)", len(delays) == len(taps) == 20)
    p99 = percentile(delays, 99)
    # The target is 100 ms; the check fails past a quarter of a second, so that one stall of this
    # shared 2-core machine does not fail CI, while the figure is printed as measured.
    check(f"tap to the phone p99 {p99:.1f} ms over {len(delays)} (target ≤ 100 ms, {'met' if p99 <= 100 else 'missed'}; fails past 250)",
          p99 <= 250, sorted(delays)[-5:])
    print(f"RESULT video_tap_to_device_p99_ms {p99:.1f} ms")
    drawn = wait_for(phone, f"window.arvisXR.annotations.length >= {len(taps)} && window.arvisXR.annotations.length", 5)
    check(f"the phone draws them in AR ({drawn})", bool(drawn))
    seen = wait_for(second, f"window.studioRoom.annotations >= {len(taps)} && window.studioRoom.annotations", 5)
    check(f"a second expert sees them live ({seen})", bool(seen))


def check_freeze(phone, expert):
    """A frozen frame stays while the phone moves on, and a click on it uses its own pose."""
    expert.click("button:has-text('Freeze frame')")
    frozen = expert.evaluate("window.studioRoom.video.recent.at(-1)")
    expert.wait_for_timeout(1500)
    tag = expert.evaluate("window.studioRoom.video.recent.at(-1)")
    check("a frozen frame stays on screen while the video goes on", frozen == tag, (frozen, tag))
    before = len(expert.evaluate("window.studioRoom.sent"))
    click_picture(expert, (0.5, 0.7), "Frozen")
    click = wait_for(expert, f"window.studioRoom.sent.length > {before} && window.studioRoom.sent[{before}]", 5)
    annotation = click and placed(expert, click["clientId"])
    sent = {entry[0]: entry for entry in phone.evaluate("window.arvisXR.share.videoLog.sent")}
    if check("a click on the frozen frame places an annotation, on a frame the phone logged", bool(annotation) and click["tag"] in sent
             and sent[click["tag"]][2] is not None, (annotation, click and click["tag"])):
        frame = decode_packet(sent[click["tag"]][2])
        truth = floor_hit(frame["position"], frame["orientation"], frame["intrinsics"], frame["viewport"], (0.5, 0.7))
        position = np.array([annotation["position"]["x"], annotation["position"].get("y", 0), annotation["position"]["z"]])
        error = np.linalg.norm(position - truth) * 1000
        check(f"... through the frozen frame's pose, 1.5 s later ({error:.2f} mm)", error <= 10, error)
    expert.click("button:has-text('Resume video')")
    moved = wait_for(expert, f"window.studioRoom.video.recent.at(-1)[0] !== {json.dumps(tag[0])} && 'ok'", 5)
    check("resumed, the video moves again", moved == "ok")


def check_drop_and_return(phone, expert):
    """The phone stops sharing: its last frame stays, marked; it shares again: video without a reload."""
    phone.click("#ar-share")
    ended = wait_for(expert, "window.studioRoom.device === 'disconnected' && window.studioRoom.videoState === 'ended' && 'ok'", 10)
    check("the phone stopping leaves its last frame, marked disconnected", ended == "ok", expert.evaluate("[window.studioRoom.device, window.studioRoom.videoState]"))
    shown = expert.evaluate("window.studioRoom.video.shown")
    phone.click("#ar-share")
    back = wait_for(expert, f"window.studioRoom.videoState === 'live' && window.studioRoom.video.shown > {shown + 30} && 'ok'", 20)
    check("sharing again, the video comes back on the same page", back == "ok", video_stats(expert))


def check_late_join(desk, port, base):
    """An expert joining late sees video within 2 s of opening the room."""
    late = xr.signed_in(desk, port, base, "ada")
    started = time.time()
    late.goto(base + "/#/p/garage/rooms/main")
    seen = wait_for(late, "window.studioRoom && window.studioRoom.video.shown > 0 && 'ok'", 15)
    elapsed = (time.time() - started) * 1000
    check(f"an expert joining late sees video in {elapsed:.0f} ms (≤ 2 000)", seen == "ok" and elapsed <= 2000, elapsed)
    print(f"RESULT video_late_join_ms {elapsed:.0f} ms")
    return late


def check_pose_less(desk, port, base):
    """A computer's camera shared from Studio (no pose): an expert sees it, and a click marks the
    picture for every member."""
    owner = studio(desk, port, base, "ada", room="bench")
    owner.click("text=Share this browser's camera")
    expert = studio(desk, port, base, "bea", room="bench")
    live = wait_for(expert, "window.studioRoom.videoState === 'live' && window.studioRoom.video.shown > 30 && 'live'", 20)
    stats = video_stats(expert)
    check(f"a computer's camera (no pose) reaches an expert, its frames exact ({stats})",
          live == "live" and stats["withPose"] == 0 and stats["tagged"] > 0 and stats["mismatches"] == 0, stats)
    click_picture(expert, (0.3, 0.4), "Here")
    click = wait_for(expert, "window.studioRoom.sent.find((sent) => sent.mark)", 5)
    marks = click and [wait_for(page, f"window.studioRoom.marks.find((mark) => mark[0] === {json.dumps(click['clientId'])})", 5)
                       for page in (expert, owner)]
    check("a click on a video without a pose marks the picture where it was made, for every member",
          bool(marks) and all(mark and abs(mark[1][0] - 0.3) < 0.01 and abs(mark[1][1] - 0.4) < 0.01 for mark in marks), marks)
    for page in (expert, owner):
        page.context.close()


def room_socket(port, token):
    return connect(f"ws://127.0.0.1:{port}/live/garage/rooms/main", subprotocols=["arvis", "arvis.bearer." + token], open_timeout=10)


def check_refusals(port, base, expert_token, outsider_token, expert):
    """A non-member cannot join; a malformed offer is refused and the video goes on."""
    from websockets.exceptions import InvalidStatus
    try:
        with room_socket(port, outsider_token) as socket:
            socket.recv(timeout=5)
            refused = "joined"
    except InvalidStatus as error:
        refused = error.response.status_code
    check(f"a non-member's upgrade to the room is refused (HTTP {refused})", isinstance(refused, int) and 400 <= refused < 500, refused)
    status, body = xr.api_error(base, "GET", "/live/garage/rooms/main", token=outsider_token)
    check(f"... and the room says why over HTTP ({status}: {body and body['error']['message']})", status == 403, body)
    with room_socket(port, expert_token) as socket:
        welcome = json.loads(socket.recv(timeout=5))
        publisher = next((member["id"] for member in welcome.get("members", []) if member["role"] == "publisher"), None)
        check("the room lists the phone as its publisher", publisher is not None, welcome.get("members"))
        shown = expert.evaluate("window.studioRoom.video.shown")
        socket.send(json.dumps({"type": "signal", "to": publisher or "0" * 16, "kind": "offer", "sdp": "hello", "clientId": "bad-offer"}))
        answer, wait = {}, None
        deadline = time.time() + 5
        while answer.get("type") != "refused" and time.time() < deadline:
            try:
                frame = socket.recv(timeout=1)
            except TimeoutError:
                continue
            answer = json.loads(frame) if isinstance(frame, str) else {}
            if answer.get("type") == "signal" and answer.get("kind") == "wait":
                wait = answer
        check("a malformed offer is refused with invalidSignal", answer.get("code") == "invalidSignal", answer)
        # Three experts have the phone's video already (bea, ada twice): a fourth member waits.
        while wait is None and time.time() < deadline + 5:
            try:
                frame = socket.recv(timeout=1)
            except TimeoutError:
                continue
            message = json.loads(frame) if isinstance(frame, str) else {}
            wait = message if message.get("type") == "signal" and message.get("kind") == "wait" else None
        check("a fourth member is told to wait for a place (peer to peer sends to 3)", bool(wait) and wait.get("from") == publisher, wait)
        goes_on = wait_for(expert, f"window.studioRoom.video.shown > {shown + 30} && 'ok'", 10)
        check("... and the video goes on", goes_on == "ok")


def host_address():
    """This machine's own address on its network (not loopback), for coturn's relayed ports."""
    import subprocess
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True).stdout.split()
    except OSError:  # no iproute2: relay on loopback (coturn is then told to allow loopback peers)
        return "127.0.0.1"
    return out[out.index("inet") + 1].split("/")[0] if "inet" in out else "127.0.0.1"


@contextlib.contextmanager
def coturn(secret):
    """Debian's coturn on loopback for the block, with the shared secret `secret`: its port."""
    import subprocess
    import tempfile
    port, folder, relay = free_port(), tempfile.mkdtemp(prefix="arvis-turn-"), host_address()
    command = ["turnserver", "-n", "-v", "--listening-ip=127.0.0.1", f"--listening-port={port}", f"--relay-ip={relay}",
               "--min-port=49160", "--max-port=49260", "--use-auth-secret", f"--static-auth-secret={secret}",
               "--realm=arvis.test", "--fingerprint", "--no-tls", "--no-dtls", "--no-cli", "--log-file=stdout",
               "--simple-log", f"--userdb={folder}/turndb", "--pidfile=" + os.path.join(folder, "turn.pid")]
    if relay == "127.0.0.1":
        command.append("--allow-loopback-peers")
    with open(os.path.join(folder, "turn.log"), "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    try:
        time.sleep(1)
        check.require("coturn starts", server.poll() is None, open(os.path.join(folder, "turn.log")).read()[-2000:])
        yield port, os.path.join(folder, "turn.log")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def janus():
    """Debian's Janus for the block, its VideoRoom plugin and HTTP API on loopback only: the API's URL."""
    import subprocess
    import tempfile
    folder, port = tempfile.mkdtemp(prefix="arvis-janus-"), free_port()
    for kind, library in (("plugins", "libjanus_videoroom.so"), ("transports", "libjanus_http.so")):
        os.makedirs(os.path.join(folder, kind))
        os.symlink(os.path.join("/usr/lib/x86_64-linux-gnu/janus", kind, library), os.path.join(folder, kind, library))
    interface = "eth0" if host_address() != "127.0.0.1" else "lo"
    files = {
        "janus.jcfg": f"""general: {{ configs_folder = "{folder}" plugins_folder = "{folder}/plugins"
                  transports_folder = "{folder}/transports" events_folder = "{folder}/none"
                  loggers_folder = "{folder}/none" debug_level = 4 session_timeout = 60 }}
                  media: {{ rtp_port_range = "20000-40000" }}
                  nat: {{ ice_enforce_list = "{interface}" ignore_mdns = true }}""",
        "janus.transport.http.jcfg": f"""general: {{ json = "compact" base_path = "/janus" http = true port = {port}
                  ip = "127.0.0.1" https = false }} admin: {{ admin_http = false }}""",
        "janus.plugin.videoroom.jcfg": "general: { }",
    }
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as out:
            out.write(text)
    with open(os.path.join(folder, "janus.log"), "wb") as log:
        server = subprocess.Popen(["janus", "-F", folder, "-o"], stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    api = f"http://127.0.0.1:{port}/janus"
    try:
        deadline = time.time() + 15
        while time.time() < deadline and server.poll() is None:
            with contextlib.suppress(Exception):
                if call(api, "POST", "", {"janus": "info", "transaction": "up"}).get("janus") == "server_info":
                    break
            time.sleep(0.2)
        check.require("Janus starts and answers on its HTTP API", server.poll() is None,
                      open(os.path.join(folder, "janus.log"), errors="replace").read()[-2000:])
        yield api
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


def share_view(browser, desk, port, base, link, expert_at=None, **runtime):
    """The phone in AR, walking and sharing its view; an expert (bea) in the room — through another
    instance's (port, base) with `expert_at`; `runtime`: the scripted XR runtime's settings. Both
    pages."""
    phone = xr.phone(browser, port, base + link["url"], **runtime)
    phone.context.grant_permissions(["camera"], origin=base)
    expert = studio(desk, *(expert_at or (port, base)), "bea")
    check.require("the phone enters AR", xr.enter_ar(phone, xr.look([0, 1.4, 1.5], [0, 0, 0])))
    phone.evaluate(MOTION)
    phone.click("#ar-share")
    on = wait_for(phone, "window.arvisXR.share.state === 'on' && window.arvisXR.share.video === 'on' && 'on'", 15)
    check.require(f"Share my view shares the camera ({on})", on == "on", phone.evaluate("window.arvisXR.share"))
    return phone, expert


def relay_run(launch):
    """The same video forced through coturn (--relay-only): exact frames, and the path is TURN."""
    secret = base64.b64encode(os.urandom(18)).decode()
    with coturn(secret) as (turn_port, turn_log):
        options = ["--ice-server", f"turn:127.0.0.1:{turn_port}?transport=udp", "--relay-only"]
        with served(ARVIS, args=options, env={"ARVIS_TURN_SECRET": secret}) as base:
            port = int(base.rsplit(":", 1)[1])
            _, _, _, link = setup(base)
            browser, desk = launch(), launch("--disable-gpu")
            phone, expert = share_view(browser, desk, port, base, link)
            path = wait_for(expert, "window.studioRoom.videoPath", 20)
            check(f"through TURN: the video's path is the relay ({path})", path == "relay", path)
            check_exactness(phone, expert, "through TURN", "video_relay", 150)
            with open(turn_log, errors="replace") as log:
                allocations = log.read().count("ALLOCATE processed, success")
            check(f"coturn allocated relays for the members ({allocations})", allocations >= 2, allocations)
            desk.close()
            browser.close()


def sfu_run(launch, viewers=5):
    """The video through Janus (--sfu) to `viewers` experts at once: every one's frames exact, glass
    to glass within 200 ms; the phone sends its camera once."""
    with janus() as api, served(ARVIS, args=["--sfu", api]) as base:
        port = int(base.rsplit(":", 1)[1])
        _, _, _, link = setup(base)
        browser, desk = launch(), launch("--disable-gpu")
        phone, first = share_view(browser, desk, port, base, link)
        experts = [first] + [studio(desk, port, base, "bea") for _ in range(viewers - 1)]
        paths = [wait_for(page, "window.studioRoom.videoPath", 30) for page in experts]
        check(f"through Janus: each of {viewers} experts gets the video from the SFU ({paths})", paths == ["sfu"] * viewers, paths)
        peers = phone.evaluate("window.arvisXR.share.videoPeers()")
        check(f"through Janus: the phone sends its camera once, to the SFU ({peers})", peers == ["sfu"], peers)
        mismatches, latencies = 0, []
        for number, page in enumerate(experts, 1):
            missed, seen = exactness(phone, page, f"through Janus, expert {number} of {viewers}")
            mismatches += missed
            latencies += seen
        report_exactness(f"through Janus, {viewers} experts", "video_sfu", 200, mismatches, latencies)
        for page in experts + [phone]:
            page.context.close()
        desk.close()
        browser.close()


def fresh_database(server):
    """A new, empty database on the PostgreSQL server of the URL `server`: its URL."""
    import subprocess
    name = f"arvis_video_{os.getpid()}_{int(time.time())}"
    subprocess.run(["psql", server, "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    return server.rsplit("/", 1)[0] + "/" + name


def instances_run(launch, database):
    """The phone on one instance, the experts on another, both on one PostgreSQL: the signalling
    crosses through the store, the video goes peer to peer, exact, and a click reaches the phone."""
    url = fresh_database(database)
    with served(ARVIS, args=["--database", url]) as first, served(ARVIS, args=["--database", url]) as second:
        ports = [int(base.rsplit(":", 1)[1]) for base in (first, second)]
        _, _, _, link = setup(first)
        browser, desk = launch(), launch("--disable-gpu")
        phone, expert = share_view(browser, desk, ports[0], first, link, expert_at=(ports[1], second))
        path = wait_for(expert, "window.studioRoom.videoPath", 30)
        check(f"across instances: the expert on the second gets the phone's video from the first, directly ({path})", path == "direct", path)
        check_exactness(phone, expert, "across instances", "video_instances", 150)
        before = len(expert.evaluate("window.studioRoom.sent"))
        click_picture(expert, (0.5, 0.7), "Across")
        click = wait_for(expert, f"window.studioRoom.sent.length > {before} && window.studioRoom.sent[{before}]", 5)
        arrived = click and wait_for(phone, f"window.arvisXR.share.arrivals.some((a) => a[0] === {json.dumps(click['clientId'])}) && 'yes'", 10)
        check("across instances: the expert's click reaches the phone", arrived == "yes", click)
        for page in (expert, phone):
            page.context.close()
        desk.close()
        browser.close()


def camera_access_run(launch):
    """The phone's AR session grants camera-access: its own camera images go, each with the pose of
    the XR frame it came from; exact frames, and clicks landing through that pose."""
    with served(ARVIS) as base:
        port = int(base.rsplit(":", 1)[1])
        _, _, _, link = setup(base)
        browser, desk = launch(), launch("--disable-gpu")
        phone, expert = share_view(browser, desk, port, base, link, cameraAccess=True)
        source = phone.evaluate("window.arvisXR.share.videoSource")
        check(f"with camera-access, the phone sends the AR session's own camera images ({source})", source == "xr-camera", source)
        check_exactness(phone, expert, "the XR camera", "video_xr_camera", 150)
        errors, naive, _, _ = click_errors(phone, expert, [(0.5, 0.6), (0.3, 0.75), (0.7, 0.5)])
        worst = max(errors) if len(errors) == 3 else float("inf")
        check(f"the XR camera: each click lands where the ray from its frame's pose meets the floor (worst {worst:.2f} mm, ≤ 10)", worst <= 10, errors)
        print(f"RESULT video_xr_camera_annotation_error_mm {worst:.2f} mm")
        for page in (expert, phone):
            page.context.close()
        desk.close()
        browser.close()


def setup(base):
    """The owner ada, the experts bea (editor), a stranger, the garage's spec and a room link."""
    owner = xr.account(base, "ada")
    call(base, "POST", "/api/v1/projects", {"slug": "garage", "name": "Garage", "visibility": "unlisted"}, owner)
    expert = xr.account(base, "bea", owner, "garage", "editor")
    outsider = xr.account(base, "cyril")
    xr.put_spec(base, owner, "garage", "car", xr.world_spec())
    link = call(base, "POST", "/api/v1/projects/garage/rooms/main/links", {"minutes": 60, "spec": "car"}, owner)
    return owner, expert, outsider, link


def main():
    with served(ARVIS) as base:
        port = int(base.rsplit(":", 1)[1])
        owner, expert_token, outsider, link = setup(base)
        with sync_playwright() as playwright:
            # The phone and the experts' computer are two browsers, as they are two devices. The
            # phone draws its XR frames in WebGL (SwiftShader); the experts' pages draw in 2D only,
            # in software without a GPU process, as a computer without a GPU would.
            launch = lambda *extra: playwright.chromium.launch(executable_path="/usr/bin/chromium", args=MEDIA_FLAGS + list(extra))  # noqa: E731
            check_frame_stream(launch, base)
            browser, desk = launch(), launch("--disable-gpu")
            phone, expert = share_view(browser, desk, port, base, link)
            path = wait_for(expert, "window.studioRoom.videoPath", 20)
            check(f"peer to peer: the video comes directly ({path})", path == "direct", path)
            check_exactness(phone, expert)
            second = studio(desk, port, base, "ada")
            check_annotations(phone, expert, second)
            check_freeze(phone, expert)
            check_drop_and_return(phone, expert)
            late = check_late_join(desk, port, base)
            check_refusals(port, base, expert_token, outsider, expert)
            check_pose_less(desk, port, base)
            for page in (late, second, expert, phone):
                page.context.close()
            desk.close()
            browser.close()
            relay_run(launch)
            camera_access_run(launch)
            sfu_run(launch)
            if DATABASE:
                instances_run(launch, DATABASE)
            else:
                print("note: rooms across instances are checked with --database postgres://… (.ci/run gives it)")
    check("no console errors on any page", not xr.errors, xr.errors[:5])
    check("nothing requested from outside the server", not xr.outside, xr.outside[:5])
    check.finish()


if __name__ == "__main__":
    main()
