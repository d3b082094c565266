#!/usr/bin/env python3
"""Bubbles in AR (issue 54), in real Chromium against a live `arvis serve`. No real phone is used:
each phone is the scripted WebXR runtime (Tests/WebXR/xr-runtime.js), driven as in
Scripts/check_plant_ar.py (sessions at random origins, the project's marker with 2 mm of noise).

Usage: check_bubbles_ar.py ARVIS [SCREENSHOTS]

Checked, independently of the product (numpy; colour-science's CIE tables and CIEDE2000):
- the gate: Blow disabled with the seed's message while poses are emulated or no surface has been
  seen, enabled once both hold;
- a pane lands 0.8 m in front of the viewer facing it (1 mm, 0.1°), on the hit point "On surfaces";
- colour: with the film's test switch (unlit, unblended, still, one thickness), a pane drawn at 28
  (thickness 100–700 nm, angle 0–60°) pairs against an independent spectral computation written
  here (Airy reflectance of a 1.33 film in air, exact Fresnel, s and p averaged, 380–780 nm every
  1 nm, D65, CIE 1931 2°, Y of a perfect white = 1, sRGB clipped): the largest CIEDE2000 difference;
  the grid is written as JSON to $ARVIS_BUBBLE_GRID when set;
- a painted trail seen from 1 m shows no background pixel between adjacent slices; 1 000 mesh
  updates; a full trail (1 024 slices) stored and the 1 025th refused by the API;
- a second phone sees a blown pane appear; the 101st pane of a session fades the oldest out on both
  phones and the store keeps 100; a second session at another origin, aligned by the marker, draws
  every pane within 1 cm and 0.5°;
- the Studio's room view (the phone sharing its view): every pane where the phone draws it;
- the project's bubbles as GLB (pygltflib): every stored pane at its pose, the film as
  KHR_materials_iridescence (index 1.33, the pattern's range); as USDZ (colour baked): usd-core's
  ARKit checker clean; the anchor cap is the project's setting (100);
- refusals in the API's error shape (a size out of range, a viewer's blow); no console error;
  nothing requested from outside the server.
Prints 'N passed, N failed' and RESULT lines: bubble_color_delta_e_max, bubble_frame_js_ms,
bubble_mesh_update_ms_p95, bubble_crack_px, bubble_reloc_error_mm, bubble_blow_to_peer_ms.
"""
import json
import math
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_plant_ar as plant  # noqa: E402  (the project, its marker and the member phones)
from check_webxr import look, pose_matrix  # noqa: E402
from checking import call, served, wait_for  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # colour-science warns that matplotlib is absent
    import colour  # noqa: E402

xr, check, log = plant.xr, plant.xr.check, plant.log
PROJECT, TRUTH, MARKER = plant.PROJECT, plant.TRUTH, plant.MARKER
REFUSED = plant.REFUSED

# --- The film's colour, computed here -----------------------------------------------------------

WAVELENGTHS = np.arange(380, 781, 1.0)
_shape = colour.SpectralShape(380, 780, 1)
CMF = colour.MSDS_CMFS["CIE 1931 2 Degree Standard Observer"].copy().align(_shape).values
D65 = colour.SDS_ILLUMINANTS["D65"].copy().align(_shape).values
XYZ_TO_SRGB = np.array([[3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560], [0.0556434, -0.2040259, 1.0572252]])
WHITE = colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"]


def film_reflectance(thickness_nm, angle_deg, n=1.33):
    """R(λ) of a film of index n in air: each polarisation's Airy sum with exact Fresnel
    amplitudes (r₂₃ = −r₁₂), as complex numbers; s and p averaged."""
    ci, si = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    ct = math.sqrt(1 - (si / n) ** 2)
    phase = np.exp(1j * 4 * math.pi * n * thickness_nm * ct / WAVELENGTHS)
    total = np.zeros_like(WAVELENGTHS)
    for r12 in ((ci - n * ct) / (ci + n * ct), (n * ci - ct) / (n * ci + ct)):
        r23 = -r12
        total += np.abs((r12 + r23 * phase) / (1 + r12 * r23 * phase)) ** 2
    return total / 2


def film_srgb(thickness_nm, angle_deg):
    """The film's colour: XYZ under D65 (a perfect white has Y = 1), linear sRGB clipped, encoded."""
    spectrum = film_reflectance(thickness_nm, angle_deg) * D65
    xyz = (spectrum[:, None] * CMF).sum(axis=0) / (D65 * CMF[:, 1]).sum()
    linear = np.clip(XYZ_TO_SRGB @ xyz, 0, 1)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)


def delta_e(srgb_a, srgb_b):
    """CIEDE2000 between two encoded sRGB colours (through XYZ and CIELAB under D65)."""
    def lab(encoded):
        e = np.asarray(encoded, float)
        linear = np.where(e <= 0.04045, e / 12.92, ((e + 0.055) / 1.055) ** 2.4)
        return colour.XYZ_to_Lab(np.linalg.solve(XYZ_TO_SRGB, linear), WHITE)
    return float(colour.delta_E(lab(srgb_a), lab(srgb_b), method="CIE 2000"))


# --- The phone ----------------------------------------------------------------------------------


def session_of(origin):
    """World → the session's own space, for a session whose origin stands at `origin`."""
    return np.linalg.inv(plant.origin_matrix(origin))


def gate_line(page):
    return page.locator("#ar-bubble-gate").inner_text()


def blow_disabled(page):
    return page.evaluate("document.querySelector('#ar-blow').disabled")


def blow_and_wait(page, timeout=8.0):
    """Blow (a short press), then frames until the pane is stored and drawn: its record, or {refused}."""
    before = log(page, "bubbles.blows.length"), log(page, "bubbles.refusals.length")
    if blow_disabled(page):
        return {"refused": {"reason": "Blow is disabled", "text": gate_line(page)}}
    page.click("#ar-blow")
    return page.evaluate("""async ([blows, refusals, timeout]) => {
      const started = performance.now();
      while (performance.now() - started < timeout) {
        __xr.frame();
        const log = window.arvisXR, record = log.bubbles.blows[blows];
        if (log.bubbles.refusals.length > refusals) return { refused: log.bubbles.refusals[log.bubbles.refusals.length - 1] };
        if (record && record.id && log.bubblesShown().panes.includes(record.id)) { __xr.frame(); return { record }; }
        await new Promise((resolve) => setTimeout(resolve, 16));
      }
      return { timeout: true };
    }""", [before[0], before[1], timeout * 1000])


def anchors(base, token):
    return call(base, "GET", f"/api/v1/projects/{PROJECT}/anchors", token=token)["anchors"]


def stored(base, token, anchor_id):
    return next((a for a in anchors(base, token) if a["id"] == anchor_id), None)


def drawn_in_session(page, anchor):
    """Where the page draws a stored anchor, in its session: the frame it found × the stored pose."""
    return plant.frame_matrix(page) @ pose_matrix(anchor["pose"])


def pane_at(base, token, position, session="colour", width=0.6):
    """A pane stored through the API at a project-frame position, facing the frame's +z."""
    body = {"pose": {"position": position, "orientation": [0, 0, 0, 1]}, "session": session,
            "payload": {"kind": "pane", "width": width, "height": width * 2 / 3, "thicknessOffset": 0, "phase": 0}}
    return call(base, "POST", f"/api/v1/projects/{PROJECT}/anchors", body, token)


# --- The runs -----------------------------------------------------------------------------------


def gating(page, origin):
    """Emulated poses from the start, then no surface, then both: the seed's messages."""
    page.evaluate("__xr.setEmulated(true)")
    plant.enter(page, origin)
    page.click("#ar-bubbles")
    xr.frames(page, 5)
    check(f"gate: poses emulated from the start: Blow disabled, '{gate_line(page)}'", blow_disabled(page) and gate_line(page).startswith("Initializing tracking..."))
    page.evaluate("__xr.setEmulated(false)")
    plant.show_marker(page)
    check(f"gate: tracking normal, the floor seen: Blow enabled, '{gate_line(page)}'", not blow_disabled(page) and gate_line(page) == "Ready to blow bubbles!")
    xr.aim(page, look([0.0, 1.5, 0.0], [0.0, 3.0, -1.0]))  # the sky: no surface
    xr.frames(page, 2)
    time.sleep(1.1)
    xr.frames(page, 2)
    check(f"gate: no surface for a second: Blow disabled, '{gate_line(page)}'", blow_disabled(page) and gate_line(page) == "Keep scanning environment...")
    plant.aim_at_ground(page, MARKER)
    xr.frames(page, 2)
    page.evaluate("__xr.setEmulated(true)")
    xr.frames(page, 2)
    moving = blow_disabled(page) and gate_line(page) == "Move slower"
    page.evaluate("__xr.setEmulated(false)")
    xr.frames(page, 29)
    still_waiting = blow_disabled(page)
    xr.frames(page, 1)
    check(f"gate: emulated again: 'Move slower', and 30 steady frames before Blow is back ({gate_line(page)})", moving and still_waiting and not blow_disabled(page))


def placement(page, origin, base, token):
    """A pane 0.8 m in front of the viewer facing it; on the surface under the reticle."""
    viewer = look([0.2, 1.4, 0.9], [-0.3, 1.2, -1.0])
    xr.set_viewer(page, viewer, 2)
    answer = blow_and_wait(page)
    record = answer.get("record")
    if not record:
        check("a pane is blown and stored", False, answer)
        return
    v = session_of(origin) @ pose_matrix(viewer)
    expected = v.copy()
    expected[:3, 3] = v[:3, 3] - 0.8 * v[:3, 2]
    mm, degrees = xr.pose_error(drawn_in_session(page, stored(base, token, record["id"])), expected)
    check(f"a pane lands 0.8 m in front of the viewer, facing it ({mm:.3f} mm, {degrees:.4f}°; target 1 mm, 0.1°)", mm <= 1 and degrees <= 0.1)
    floor_point = np.array([0.9, 0.0, -0.6])
    plant.aim_at_ground(page, floor_point, distance=1.0)
    page.click("#ar-bubble-surface")
    answer = blow_and_wait(page)
    page.click("#ar-bubble-surface")
    record = answer.get("record")
    if not record:
        check("On surfaces: a pane is blown on the floor", False, answer)
        return
    hit, normal = xr.centre_hit(xr.devices[page]["viewer"])
    drawn = drawn_in_session(page, stored(base, token, record["id"]))
    at = session_of(origin) @ np.append(hit, 1.0)
    mm = float(np.linalg.norm(drawn[:3, 3] - at[:3]) * 1000)
    facing = math.degrees(math.acos(min(1.0, float(drawn[:3, 2] @ (session_of(origin)[:3, :3] @ normal)))))
    check(f"On surfaces: the pane lies at the hit point, facing out of the floor ({mm:.3f} mm, {facing:.4f}°)", mm <= 1 and facing <= 0.1)


def colour_grid(page, origin, base, token, results):
    """The test switch's pane at 28 (thickness, angle) pairs against the spectral computation here."""
    centre = [-3.0, 1.2, 3.0]
    anchor = pane_at(base, token, centre, width=1.0)
    wait_for(page, f"(__xr.frame(), window.arvisXR.bubblesShown().panes.includes('{anchor['id']}')) && 'ok'", 5)
    page_world = plant.origin_matrix(origin) @ plant.frame_matrix(page)
    c = (page_world @ np.append(centre, 1.0))[:3]
    normal, across = page_world[:3, 2], page_world[:3, 0]
    grid, worst = [], 0.0
    for thickness in range(100, 701, 100):
        page.evaluate(f"window.arvisXR.bubbleTest({{unlit: true, still: true, thickness: {thickness}}})")
        for angle in (0, 20, 40, 60):
            a = math.radians(angle)
            eye = c + 1.0 * (math.cos(a) * normal + math.sin(a) * across)
            xr.set_viewer(page, look(eye.tolist(), c.tolist()), 2)
            x, y = xr.project(xr.view_of(page), c)
            pixel = xr.framebuffer(page)[int(round(y)), int(round(x))]
            srgb = (pixel[:3] / 255.0).tolist()
            difference = delta_e(srgb, film_srgb(thickness, angle))
            worst = max(worst, difference)
            grid.append({"thickness_nm": thickness, "angle_deg": angle, "srgb": srgb, "reference": film_srgb(thickness, angle).tolist(), "delta_e": round(difference, 3)})
    page.evaluate("window.arvisXR.bubbleTest(null)")
    results["bubble_color_delta_e_max"] = worst
    if os.environ.get("ARVIS_BUBBLE_GRID"):
        with open(os.environ["ARVIS_BUBBLE_GRID"], "w") as file:
            json.dump(grid, file, indent=1)
    check(f"colour: {len(grid)} (thickness, angle) pairs drawn as the spectral computation (largest CIEDE2000 {worst:.2f}; target ≤ 5)", len(grid) >= 20 and worst <= 5)
    call(base, "DELETE", f"/api/v1/projects/{PROJECT}/anchors/{anchor['id']}", token=token)


def paint(page, start, step, count, wave=0.0):
    """Holds Paint while the viewer moves `count` frames from `start` by `step` (world), `wave`
    metres up and down (a sine, two periods in 160 frames), looking along −z; releases it; returns
    the trail's record once stored (or None). Painting starts looking at the floor (the gate wants a
    surface seen); it goes on across open space."""
    plant.aim_at_ground(page, [start[0], 0.0, start[2] - 1.0], distance=1.0)
    xr.frames(page, 2)
    before = log(page, "bubbles.trails.length")
    page.dispatch_event("#ar-paint", "pointerdown", {"pointerId": 1})
    return page.evaluate("""async ([start, step, count, wave, before]) => {
      for (let k = 0; k < count; k++) {
        const y = start[1] + step[1] * k + wave * Math.sin(k * Math.PI / 40);
        __xr.setViewer({ position: [start[0] + step[0] * k, y, start[2] + step[2] * k], orientation: [0, 0, 0, 1] });
        __xr.frame();
      }
      document.querySelector('#ar-paint').dispatchEvent(new PointerEvent('pointerup'));
      const trails = window.arvisXR.bubbles.trails, started = performance.now();
      while (performance.now() - started < 8000) {
        __xr.frame();
        const record = trails[before];
        if (record && (record.id || record.status >= 400 || (record.stopped && record.slices < 2))) return record;
        await new Promise((resolve) => setTimeout(resolve, 16));
      }
      return trails[before] || null;
    }""", [list(map(float, start)), list(map(float, step)), count, wave, before])


def trails(page, origin, base, token, results):
    """A trail seen from 1 m shows no crack; a full trail's mesh updates; the cap holds in the API."""
    record = paint(page, [-1.0, 1.5, 2.5], [0.012, 0.0, 0.0], 170, wave=0.1)
    if not record or not record.get("id"):
        check("a painted trail is stored", False, record)
        return
    trail = stored(base, token, record["id"])
    origin_point = np.array(trail["pose"]["position"])
    flat = np.array(trail["payload"]["points"], float).reshape(-1, 3)
    slices = origin_point + np.cumsum(flat, axis=0) / 1000
    page_world = plant.origin_matrix(origin) @ plant.frame_matrix(page)
    world = (page_world @ np.column_stack([slices, np.ones(len(slices))]).T).T[:, :3]
    middle = world[len(world) // 2]
    page.evaluate("window.arvisXR.bubbleTest({unlit: true, still: true, thickness: 300})")
    xr.set_viewer(page, look((middle + [0.0, 0.0, 1.0]).tolist(), middle.tolist()), 2)
    pixels, view = xr.framebuffer(page), xr.view_of(page)
    xr.screenshot(pixels, "trail")
    cracks, sampled = 0, 0
    for a, b in zip(world[:-1], world[1:]):
        for t in np.linspace(0, 1, 6):
            at = xr.project(view, a + (b - a) * t)
            if at is None or not (0 <= at[0] < pixels.shape[1] and 0 <= at[1] < pixels.shape[0]):
                continue
            sampled += 1
            cracks += int(pixels[int(at[1]), int(at[0])][3] == 0)
    page.evaluate("window.arvisXR.bubbleTest(null)")
    results["bubble_crack_px"] = cracks
    check(f"a {len(world)}-slice curved trail seen from 1 m: no background pixel between adjacent slices ({cracks} of {sampled} points on its spine in view)", sampled > 150 and cracks == 0)
    full = paint(page, [-3.0, 1.5, 4.0], [0.011, 0.0, -0.0007], 1100)
    updates = log(page, "bubbles.meshUpdates")
    results["bubble_mesh_update_ms_p95"] = float(np.percentile(updates[-1000:], 95)) if updates else float("nan")
    check(f"a full trail ({full and full.get('slices')} slices, stopped: {full and full.get('stopped')}) is stored; p95 of its last 1 000 mesh updates {results['bubble_mesh_update_ms_p95']:.3f} ms (target ≤ 1.5)",
          bool(full) and full.get("slices") == 1024 and full.get("stopped") == "full" and bool(full.get("id")) and results["bubble_mesh_update_ms_p95"] <= 1.5)
    over = {"pose": {"position": [0, 1, 0], "orientation": [0, 0, 0, 1]}, "payload": {"kind": "trail", "up": [0, 1, 0], "points": [10, 0, 0] * 1025}}
    status, body = xr.api_error(base, "POST", f"/api/v1/projects/{PROJECT}/anchors", over, token)
    check("the API refuses a trail of 1 025 slices in its error shape", status == 422 and body and body["error"]["code"] == "invalidBubble", body)


def live_and_cap(ana, rui, ana_origin, base, tokens, results):
    """Phone 2 sees phone 1's panes appear; the 101st pane of a session fades the oldest on both."""
    rui_origin = plant.random_origin()
    plant.enter(rui, rui_origin)
    plant.show_marker(rui)
    # Phone 2 watches from 20 m off, drawing every frame (SwiftShader draws here what a phone's GPU
    # would: a view filled with film would measure this machine's fill rate, not the live path).
    xr.aim(rui, look(MARKER + [0.0, 8.0, 20.0], MARKER.tolist()))
    rui.evaluate("__xr.autoFrames(true)")
    lags, arrived, answered, echoed = [], [], [], []
    frames_before, started = rui.evaluate("__xr.frameCount"), time.time()
    # Twenty blows, so that the p95 is not simply the slowest one (of twelve, it was).
    for k in range(20):
        xr.set_viewer(ana, look([-2.5 + 0.25 * k, 1.4, 1.5], [-2.5 + 0.25 * k, 1.3, -1.0]), 1)
        record = blow_and_wait(ana).get("record")
        if not record:
            continue
        seen = wait_for(rui, f"window.arvisXR.bubbleArrivals.some((a) => a.id === '{record['id']}' && a.drawnAt) && 'ok'", 5) == "ok"
        if seen:
            arrival = next(a for a in log(rui, "bubbleArrivals") if a["id"] == record["id"])
            lags.append(arrival["drawnAt"] - record["tappedAt"])
            arrived.append(arrival["at"] - record["tappedAt"])
            answered.append(record["answeredAt"] - record["tappedAt"])
            echo = [a for a in log(ana, "bubbleArrivals") if a["id"] == record["id"]]
            echoed.append(echo[0]["at"] - record["tappedAt"] if echo else float("nan"))
    results["bubble_blow_to_peer_ms"] = float(np.percentile(lags, 95)) if lags else float("nan")
    rate = (rui.evaluate("__xr.frameCount") - frames_before) / (time.time() - started)
    print(f"phone 2 ran {rate:.1f} frames a second; its JS per frame (median) {np.median(log(rui, 'frameTimes')[-100:]):.2f} ms; "
          f"blow → drawn there, each: {', '.join(f'{lag:.0f}' for lag in lags)} ms; → arrived: {', '.join(f'{lag:.0f}' for lag in arrived)} ms")
    check(f"phone 2 draws every pane phone 1 blows (p95 blow → drawn there {results['bubble_blow_to_peer_ms']:.0f} ms, → arrived there "
          f"{np.percentile(arrived, 95) if arrived else float('nan'):.0f} ms, → phone 1's answer {np.percentile(answered, 95) if answered else float('nan'):.0f} ms, "
          f"→ the room's echo on phone 1 {np.nanpercentile(echoed, 95) if echoed else float('nan'):.0f} ms; "
          "target ≤ 300, fails past twice that)",
          len(lags) == 20 and results["bubble_blow_to_peer_ms"] <= 600)
    session = log(ana, "bubbles.session")
    mine = [a for a in anchors(base, tokens["olga"]) if a.get("session") == session]
    for k in range(100 - len(mine)):
        pane_at(base, tokens["ana"], [-4.0 + (k % 10) * 0.7, 0.8 + (k // 10) * 0.35, -2.5], session=session, width=0.3)
    before = {a["id"]: a for a in anchors(base, tokens["olga"]) if a.get("session") == session}
    xr.set_viewer(ana, look([0.0, 1.4, 1.5], [0.0, 1.3, -1.0]), 1)
    answer = blow_and_wait(ana)
    record = answer.get("record")
    kept = {a["id"] for a in anchors(base, tokens["olga"]) if a.get("session") == session}
    evicted = sorted(set(before) - kept)
    oldest = evicted[0] if evicted else None
    first = min(a["createdAt"] for a in before.values())
    check(f"the 101st pane of a session: the store keeps 100 ({len(kept)}), the oldest gone ({len(evicted)} evicted)",
          record and len(kept) == 100 and len(evicted) == 1 and before[oldest]["createdAt"] == first, answer.get("refused"))
    fades = [wait_for(page, f"window.arvisXR.bubbleFades.some((f) => f.id === '{oldest}') && 'ok'", 5) == "ok" for page in (ana, rui)]
    time.sleep(1.1)
    xr.frames(ana, 2)
    gone = oldest not in log(ana, "bubblesShown()")["panes"] and not log(ana, "bubblesShown()")["fading"]
    check("…and it fades out on both phones, gone after a second", all(fades) and gone, (fades, log(ana, "bubblesShown()")["fading"]))
    rui.evaluate("__xr.autoFrames(false)")


def frame_time(page, origin, results):
    """100 panes and a 1 024-slice trail in view: the page's frame time."""
    xr.set_viewer(page, look([-0.5, 1.6, 6.0], [-0.5, 1.2, -2.0]), 2)
    times = xr.frames(page, 70)[10:]
    results["bubble_frame_js_ms"] = float(np.median(times))
    shown = log(page, "bubblesShown()")
    xr.screenshot(xr.framebuffer(page), "panes")
    check(f"{len(shown['panes'])} panes and {len(shown['trails'])} trails (one of 1 024 slices) drawn in {log(page, 'bubbleDrawCalls')} draw calls; the page's frame {results['bubble_frame_js_ms']:.2f} ms (median; target ≤ 2)",
          len(shown["panes"]) + len(shown["trails"]) >= 100 and log(page, "bubbleDrawCalls") <= 1 + len(shown["trails"]))


def second_session(page, base, token, results):
    """The same phone, another session at another origin, aligned by the marker: every pane."""
    page.click("#ar-exit")
    wait_for(page, "window.arvisXR.state === 'ended' && 'ok'", 5)
    origin = plant.random_origin()
    plant.enter(page, origin)
    plant.show_marker(page, frames=600)
    panes = [a for a in anchors(base, token) if (a.get("payload") or {}).get("kind") == "pane"]
    wait_for(page, f"(__xr.frame(), window.arvisXR.bubblesShown().panes.length >= {len(panes)}) && 'ok'", 10)
    drawn = plant.origin_matrix(origin) @ plant.frame_matrix(page)
    largest, degrees = 0.0, 0.0
    for anchor in panes:
        m = pose_matrix(anchor["pose"])
        mm, deg = xr.pose_error(drawn @ m, TRUTH @ m)
        largest, degrees = max(largest, mm), max(degrees, deg)
    results["bubble_reloc_error_mm"] = largest
    check(f"session 2, another origin, aligned by the marker: every pane within 1 cm and 0.5° ({largest:.1f} mm, {degrees:.2f}°, {len(panes)} panes)",
          largest <= 10 and degrees <= 0.5 and len(log(page, "bubblesShown()")["panes"]) >= len(panes))


def studio_room(page, browser, port, base, token):
    """The phone shares its view in room "main"; the owner's Studio room page draws every pane where
    the phone draws it in its session (the room's coordinates), from the phone's projectFrame."""
    page.click("#ar-share")
    on = wait_for(page, "(__xr.frame(), window.arvisXR.share.state === 'on') && 'on'", 15)
    check(f"the phone shares its view in room main ({on})", on == "on")
    studio = xr.signed_in(browser, port, base, "olga")
    studio.goto(base + f"/#/p/{PROJECT}/rooms/main")
    studio.wait_for_selector("canvas.room-camera")
    panes = [a for a in anchors(base, token) if (a.get("payload") or {}).get("kind") == "pane"]
    page.evaluate("__xr.autoFrames(true)")
    seen = wait_for(studio, f"(window.studioRoom.bubbles.drawn.filter((b) => b.kind === 'pane').length >= {len(panes)}) && 'ok'", 15)
    page.evaluate("__xr.autoFrames(false)")
    time.sleep(0.5)  # the last frame's projectFrame, if it moved, on its way
    drawn = {b["id"]: b for b in studio.evaluate("window.studioRoom.bubbles.drawn")}
    errors = []
    for anchor in panes:
        if anchor["id"] in drawn:
            centre = np.mean(np.array(drawn[anchor["id"]]["points"]), axis=0)
            errors.append(float(np.linalg.norm(centre - drawn_in_session(page, anchor)[:3, 3])) * 1000)
    worst = max(errors) if errors else float("inf")
    check(f"the Studio's room view draws every pane the phone sees, where it sees it ({len(errors)} of {len(panes)}, worst {worst:.2f} mm)",
          seen == "ok" and len(errors) == len(panes) and worst <= 1, studio.evaluate("window.studioRoom.bubbles.frame"))
    if xr.SHOTS:
        os.makedirs(xr.SHOTS, exist_ok=True)
        studio.locator("section[aria-label=Scene]").screenshot(path=os.path.join(xr.SHOTS, "studio-room-scene.png"))
    studio.context.close()
    page.click("#ar-share")


def model_files(base, token):
    """The project's bubbles as GLB (pygltflib): every pane at its stored pose, the film as
    KHR_materials_iridescence with the phone's index and thickness range; as USDZ: the ARKit checker."""
    import pygltflib  # noqa: PLC0415 — only here
    project = call(base, "GET", f"/api/v1/projects/{PROJECT}", token=token)
    check(f"the project's anchor cap is its setting ({project.get('anchorsPerSession')}, 100 by default)", project.get("anchorsPerSession") == 100)
    stored_panes = [a for a in anchors(base, token) if (a.get("payload") or {}).get("kind") == "pane"]
    glb = pygltflib.GLTF2.load_from_bytes(call(base, "GET", f"/api/v1/projects/{PROJECT}/bubbles.glb", token=token))
    films = [(m.extensions or {}).get("KHR_materials_iridescence") for m in glb.materials]
    ranges_ok = all(f and abs(f["iridescenceIor"] - 1.33) < 1e-6 and 0 <= f["iridescenceThicknessMinimum"] <= f["iridescenceThicknessMaximum"] <= 1000
                    and "iridescenceThicknessTexture" in f for f in films)
    # The phone's pattern over the texture's 64 × 32 texels (numpy, here): 124.45–675.35 nm for no offset.
    u, v = np.meshgrid(2 * (np.arange(64) + 0.5) / 64, (np.arange(32) + 0.5) / 32)
    pattern = 400 + 200 * np.sin(6.283 * u) * np.cos(6.283 * v) + 100 * np.sin(3.14 * (u + v))
    plain = [f for f in films if f and abs(f["iridescenceThicknessMinimum"] - pattern.min()) < 0.5]
    check(f"the GLB's film is KHR_materials_iridescence, index 1.33, thickness as drawn ({len(films)} materials; "
          f"offset 0: {plain[0]['iridescenceThicknessMinimum']:.0f}–{plain[0]['iridescenceThicknessMaximum']:.0f} nm)" if plain else "the GLB's film: no material of offset 0",
          "KHR_materials_iridescence" in (glb.extensionsUsed or []) and films and ranges_ok
          and plain and abs(plain[0]["iridescenceThicknessMaximum"] - pattern.max()) < 0.5, films[:2])
    centres = [tuple(round(c, 6) for c in node.matrix[12:15]) for node in glb.nodes if node.name == "Pane" and node.matrix]
    expected = sorted(tuple(round(c, 6) for c in a["pose"]["position"]) for a in stored_panes)
    check(f"the GLB holds every stored pane at its pose ({len(centres)} of {len(expected)})", sorted(centres) == expected)
    plant.usdz_check(base, token, "bubbles.usdz", "the project's bubbles (colour baked)")


def refusals(base, tokens, browser, port):
    """A pane out of range and a viewer's blow, in the API's error shape; no Bubbles for a viewer."""
    body = {"pose": {"position": [0, 1, 0], "orientation": [0, 0, 0, 1]}, "payload": {"kind": "pane", "width": 5}}
    status, answer = xr.api_error(base, "POST", f"/api/v1/projects/{PROJECT}/anchors", body, tokens["ana"])
    check("a pane 5 m wide is refused (422 invalidBubble, naming the field)", status == 422 and answer and answer["error"]["code"] == "invalidBubble" and "width" in answer["error"]["message"], answer)
    body["payload"]["width"] = 0.6
    status, answer = xr.api_error(base, "POST", f"/api/v1/projects/{PROJECT}/anchors", body, tokens["vera"])
    check("a viewer's blow is refused (403 in the API's error shape)", status == 403 and answer and answer["error"]["code"], answer)
    status, answer = xr.api_error(base, "DELETE", f"/api/v1/projects/{PROJECT}/bubbles", token=tokens["ana"])
    check("an editor may not remove every bubble (403 in the API's error shape)", status == 403 and answer and answer["error"]["code"], answer)
    bubbles = [a for a in anchors(base, tokens["olga"]) if (a.get("payload") or {}).get("kind") in ("pane", "trail")]
    removed = call(base, "DELETE", f"/api/v1/projects/{PROJECT}/bubbles", token=tokens["olga"])["removed"]
    left = [a for a in anchors(base, tokens["olga"]) if (a.get("payload") or {}).get("kind") in ("pane", "trail")]
    check(f"the owner removes every bubble in one call ({removed} of {len(bubbles)})", removed == len(bubbles) > 0 and not left)
    vera = plant.member_phone(browser, port, base, tokens["vera"], REFUSED)
    plant.enter(vera, plant.random_origin())
    check("a viewer's phone offers no Bubbles tool", vera.locator("#ar-bubbles").is_hidden())
    vera.context.close()


def main():
    results = {}
    with served(xr.ARVIS) as base:
        port = int(base.rsplit(":", 1)[1])
        tokens, _ = plant.setup(base)
        with sync_playwright() as playwright:
            launch = lambda: playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--enable-unsafe-swiftshader", "--use-angle=swiftshader"])  # noqa: E731
            phone1, phone2 = launch(), launch()
            ana = plant.member_phone(phone1, port, base, tokens["ana"], REFUSED)
            rui = plant.member_phone(phone2, port, base, tokens["rui"], REFUSED)
            origin = plant.random_origin()
            gating(ana, origin)
            placement(ana, origin, base, tokens["ana"])
            colour_grid(ana, origin, base, tokens["ana"], results)
            trails(ana, origin, base, tokens["ana"], results)
            live_and_cap(ana, rui, origin, base, tokens, results)
            frame_time(ana, origin, results)
            second_session(ana, base, tokens["olga"], results)
            studio_room(ana, phone2, port, base, tokens["olga"])
            model_files(base, tokens["olga"])
            refusals(base, tokens, phone2, port)
            for browser in (phone1, phone2):
                browser.close()
        check("no console errors on any page", not xr.errors, xr.errors[:5])
        check("nothing requested from outside the server", not xr.outside, xr.outside[:5])
    for name, unit in (("bubble_color_delta_e_max", "dE00"), ("bubble_frame_js_ms", "ms"), ("bubble_mesh_update_ms_p95", "ms"), ("bubble_crack_px", "px"),
                       ("bubble_reloc_error_mm", "mm"), ("bubble_blow_to_peer_ms", "ms")):
        if name in results:
            value = results[name]
            print(f"RESULT {name} {value:.2f} {unit}" if isinstance(value, float) else f"RESULT {name} {value} {unit}")
    check.finish()


if __name__ == "__main__":
    main()
