// The spec hub's phone page. It follows its spec live: a new version replaces the page's header,
// links, codes and widgets in place (no reload), within a moment of the save. Where the browser
// has WebXR it offers "Enter AR" and the page itself becomes the AR device (xr/ar-view.js,
// docs/webxr.md); elsewhere it says which AR this device gets instead, and why.

import { startAR } from "./xr/ar-view.js";
import { arMode } from "./xr/ar-mode.js";
import { followSpec } from "./xr/spec-follower.js";

const body = document.body;
/// Says how the stream goes in #live, and tells the AR view (`arvis-live` events).
function say(text) {
  const status = document.getElementById("live");
  if (status) status.textContent = text;
  window.dispatchEvent(new CustomEvent("arvis-live", { detail: text }));
}

/// What the page shows of a version, for the check and the AR view: {version, shownAt (epoch ms)}.
window.arvisHub = { version: Number(body.dataset.version), shownAt: null };

/// Replaces what the page shows with version `number`'s page (fetched afresh).
async function show(number) {
  const response = await fetch(location.pathname, { cache: "no-store" });
  if (!response.ok) throw new Error("the page answered " + response.status);
  const next = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const selector of ["header", "nav", ".codes", ".widgets"]) {
    const here = document.querySelector(selector), there = next.querySelector(selector);
    if (here && there) here.replaceWith(document.importNode(there, true));
  }
  body.dataset.version = next.body.dataset.version || String(number);
  document.title = next.title;
  window.arvisHub.version = Number(body.dataset.version);
  window.arvisHub.shownAt = performance.timeOrigin + performance.now();
  say("live");
}

/// The version a save made while the page was in AR, shown when the session ends.
let pending = null;
const arActive = () => ["starting", "placing", "placed"].includes(window.arvisXR.state);

function refresh(number) {
  say("version " + number + " saved: showing it…");
  show(number).catch((error) => say("version " + number + " saved; reload to see it (" + error.message + ")"));
}

window.addEventListener("arvis-ar-ended", () => { if (pending !== null) { refresh(pending); pending = null; } });

if (body.dataset.live && body.dataset.version && window.EventSource) {
  followSpec(body.dataset.live, body.dataset.version, {
    status: say,
    version: (message) => {
      window.dispatchEvent(new CustomEvent("arvis-version", { detail: message }));
      // In AR the page is under the camera: it catches up when the session ends, so the AR view
      // has the server to itself.
      if (arActive()) { pending = message.version; return; }
      refresh(message.version);
    },
    rows: (message) => window.dispatchEvent(new CustomEvent("arvis-rows", { detail: message })),
    deleted: () => say("this spec was deleted"),
  });
}

arMode().then((mode) => {
  window.arvisXR.mode = mode.kind;
  document.getElementById("ar-mode").textContent = mode.explanation;
  const enter = document.getElementById("ar-enter");
  if (mode.kind !== "webxr") return;
  enter.hidden = false;
  window.dispatchEvent(new Event("arvis-ar-available"));
  enter.addEventListener("click", () => startAR());
});
