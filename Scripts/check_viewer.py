#!/usr/bin/env python3
"""The orbit viewer in real Chromium (Debian's, driven by Playwright), against a live `arvis serve`.

Usage: check_viewer.py ARVIS FIXTURES SCREENSHOTS

Signs up, creates a project, uploads GLB and USDZ fixtures, waits for the server to make their
thumbnails, then for each: opens /a/PROJECT/ID, waits for the first WebGL 2 frame, and compares the
canvas's silhouette with the server's 1024-pixel thumbnail (IoU >= 0.9: the same framing, drawn by
two independent renderers). Then drags to orbit (the picture changes), resets (it comes back),
zooms with the wheel, checks the AR links an iPhone and an Android phone get, and that no page
logged a console error. Screenshots go to SCREENSHOTS. Prints 'N passed, N failed'.
"""
import io
import os
import sys
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks, call, served, wait_for_frame  # noqa: E402
from playwright.sync_api import sync_playwright

ARVIS, FIXTURES, SHOTS = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
os.makedirs(SHOTS, exist_ok=True)
check = Checks()


def mask_of_png(data, size=None):
    image = Image.open(io.BytesIO(data)).convert("RGBA")
    if size and image.size != size:
        image = image.resize(size, Image.BILINEAR)
    return np.array(image)[:, :, 3] > 127


def iou(a, b):
    return (a & b).sum() / max(1, (a | b).sum())


def canvas_png(page):
    url = page.evaluate("document.getElementById('view').toDataURL('image/png')")
    import base64
    return base64.b64decode(url.split(",", 1)[1])


def main():
    with served(ARVIS) as base:
        call(base, "POST", "/api/v1/accounts", {"username": "viewer", "password": "a long enough password"})
        token = call(base, "POST", "/api/v1/sessions", {"username": "viewer", "password": "a long enough password"})["token"]
        call(base, "POST", "/api/v1/projects", {"slug": "models", "name": "Models", "visibility": "unlisted"}, token)
        assets = []
        for name in ("sphere.glb", "hierarchy.glb", "zup_cm.usdz"):
            with open(os.path.join(FIXTURES, name), "rb") as handle:
                body = handle.read()
            asset = call(base, "POST", f"/api/v1/projects/models/assets?name={name}", body, token, "application/octet-stream")
            check(f"{name} uploads as {asset['format']}", asset["status"] == "processing" and asset["size"] == len(body))
            assets.append(asset)
        for asset in assets:
            for _ in range(600):
                current = call(base, "GET", f"/api/v1/projects/models/assets/{asset['id']}")
                if current["status"] != "processing":
                    break
                time.sleep(0.1)
            check(f"{asset['name']} is processed", current["status"] == "ready", current.get("failure", current["status"]))
        errors = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--enable-unsafe-swiftshader", "--use-angle=swiftshader"])
            context = browser.new_context(viewport={"width": 600, "height": 900})
            for asset in assets:
                page = context.new_page()
                page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(base + asset["links"]["viewer"])
                state = wait_for_frame(page)
                check(f"{asset['name']}: the viewer draws a first frame", state["frames"] > 0, state["error"])
                if state["frames"] == 0:
                    continue
                page.screenshot(path=os.path.join(SHOTS, f"viewer-{asset['name']}.png"))
                first = canvas_png(page)
                ours = mask_of_png(first)
                link = asset["links"]["thumbnail"]
                thumbnail = call(base, "GET", link + ("&" if "?" in link else "?") + "size=1024")
                theirs = mask_of_png(thumbnail, size=(ours.shape[1], ours.shape[0]))
                score = iou(ours, theirs)
                check(f"{asset['name']}: the first frame's silhouette matches the server thumbnail (IoU {score:.3f} >= 0.9)", score >= 0.9)
                poster_hidden = page.evaluate("document.querySelector('.poster') === null || document.querySelector('.poster').hidden")
                check(f"{asset['name']}: the poster gives way to the first frame", poster_hidden)
                box = page.locator("#view").bounding_box()
                cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                page.mouse.move(cx, cy)
                page.mouse.down()
                page.mouse.move(cx + 120, cy + 30, steps=6)
                page.mouse.up()
                page.wait_for_timeout(200)
                turned = mask_of_png(canvas_png(page))
                check(f"{asset['name']}: dragging orbits the camera", iou(turned, ours) < 0.995 or not np.array_equal(turned, ours))
                page.mouse.wheel(0, -600)
                page.wait_for_timeout(200)
                zoomed = mask_of_png(canvas_png(page))
                check(f"{asset['name']}: the wheel zooms in", zoomed.sum() > turned.sum())
                page.click("#reset")
                page.wait_for_timeout(200)
                check(f"{asset['name']}: Reset view returns to the framed view", iou(mask_of_png(canvas_png(page)), ours) > 0.99)
                page.dblclick("#view")
                page.focus("#view")
                page.keyboard.press("ArrowRight")
                page.keyboard.press("0")
                page.wait_for_timeout(200)
                check(f"{asset['name']}: the keyboard turns and resets", iou(mask_of_png(canvas_png(page)), ours) > 0.99)
                page.close()
            for agent, shown, hidden in (("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", "#ar-ios", "#ar-android"),
                                         ("Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36", "#ar-android", "#ar-ios")):
                phone = browser.new_context(user_agent=agent, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                page = phone.new_page()
                page.goto(base + assets[0]["links"]["viewer"])
                wait_for_frame(page)
                visible = page.is_visible(shown) and not page.is_visible(hidden)
                href = page.get_attribute(shown, "href")
                expected = "model.usdz" if shown == "#ar-ios" else "scene-viewer"
                check(f"{shown} offered on its phone ({href[:60]}…)", visible and expected in href)
                if shown == "#ar-ios":
                    check("the iOS link is rel=ar with an image first", page.get_attribute(shown, "rel") == "ar" and page.evaluate("document.querySelector('#ar-ios').firstElementChild.tagName") == "IMG")
                page.screenshot(path=os.path.join(SHOTS, f"viewer-phone-{shown[1:]}.png"))
                phone.close()
            browser.close()
        check("no console errors on any page", not errors, errors[:5])
    check.finish()


if __name__ == "__main__":
    main()
