// A tap on a widget in AR: the hub's interactive page of the widget (the same SVG, with its
// tooltips, segmented controls, players and links) is laid out in the DOM overlay's panel and
// asked what lies under the tapped point. An `iARVis://openComponent` link there opens its child
// widget in AR; anything else that answers taps opens the panel over the widget.

/// What answers a tap in a widget's page.
const interactive = ".arvis-segment-button, .arvis-hover, .arvis-open, a[href], video, audio, button";

/// The panel in `root` (#ar-panel, with its iframe and close button) for the spec at `base`.
/// Returns {tap(id, version, u, v, rect) → Promise<{kind: "link", child} | {kind: "panel"} |
/// {kind: "none"}>, close(), open (the widget id shown, or null)}.
export function widgetPanel(root, base, onClose) {
  const frame = root.querySelector("iframe"), panel = { open: null };
  root.querySelector("#ar-panel-close").addEventListener("click", () => { panel.close(); onClose(); });

  /// Loads widget `id`'s page into the frame, laid out but not shown, and resolves its document.
  function load(id, version) {
    Object.assign(root.style, { visibility: "hidden", left: "0px", top: "0px", width: "1024px", height: "1024px" });
    root.hidden = false;
    return new Promise((resolve, reject) => {
      frame.onload = () => {
        // A touch on the panel's page is the panel's, not a tap in the room.
        frame.contentDocument.addEventListener("beforexrselect", (event) => event.preventDefault());
        resolve(frame.contentDocument);
      };
      frame.onerror = () => reject(new Error("the widget's page did not load"));
      frame.src = `${base}/widgets/${encodeURIComponent(id)}.html?v=${encodeURIComponent(version)}`;
    });
  }

  panel.tap = async (id, version, u, v, rect) => {
    const page = await load(id, version);
    const picture = page && page.querySelector("main svg");
    if (!picture) { panel.close(); return { kind: "none" }; }
    const box = picture.getBoundingClientRect();
    const hit = page.elementFromPoint(box.left + u * box.width, box.top + v * box.height);
    const link = hit && hit.closest("a.arvis-open");
    const overlay = link && page.getElementById((link.getAttribute("href") || "").slice(1));
    if (overlay && overlay.dataset.child) { panel.close(); return { kind: "link", child: id + "-" + overlay.dataset.child }; }
    const target = hit && hit.closest(interactive);
    if (!target && !page.querySelector(interactive)) { panel.close(); return { kind: "none" }; }
    Object.assign(root.style, { left: rect.left + "px", top: rect.top + "px", width: rect.width + "px", height: rect.height + "px", visibility: "visible" });
    panel.open = id;
    if (target) target.dispatchEvent(new page.defaultView.MouseEvent("click", { bubbles: true, cancelable: true }));
    return { kind: "panel" };
  };

  panel.close = () => {
    root.hidden = true;
    frame.removeAttribute("src");
    panel.open = null;
  };
  return panel;
}

/// Where the panel goes over a widget whose corners fall at `points` (CSS px; null when behind
/// the viewer) in a `width` × `height` overlay: their bounds, at least 240 × 160, kept on screen.
export function panelRect(points, width, height) {
  const seen = points.filter(Boolean);
  const xs = seen.map((p) => p[0]), ys = seen.map((p) => p[1]);
  let left = seen.length ? Math.min(...xs) : width / 4, top = seen.length ? Math.min(...ys) : height / 4;
  let w = seen.length ? Math.max(...xs) - left : width / 2, h = seen.length ? Math.max(...ys) - top : height / 2;
  w = Math.min(Math.max(w, 240), width - 16);
  h = Math.min(Math.max(h, 160), height - 16);
  left = Math.min(Math.max(left, 8), width - w - 8);
  top = Math.min(Math.max(top, 8), height - h - 8);
  return { left, top, width: w, height: h };
}
