// A project's gallery: its 3D models as a grid of thumbnails, drag-and-drop (or chosen) uploads
// with a progress bar, the orbit viewer, AR links, rename, trash and restore. An asset's links come
// from the server as they are to be followed: in a private project each carries a short-lived
// read grant for that asset alone, never the session's token.

import { api, attempt, projectPath, withQuery } from "../core/api.js";
import { h } from "../core/dom.js";
import { onLeave, projectNav, show } from "../core/page.js";
import { canEdit } from "../core/roles.js";
import { route } from "../core/router.js";
import { say } from "../core/toast.js";
import { upload } from "./upload.js";

const assetsPath = (slug) => projectPath(slug, "assets");

/// The buttons of an asset in the gallery (view, AR, rename, delete) or in its trash (restore).
function assetActions(slug, asset, { editable, trash, view }) {
  const links = asset.links || {};
  const ready = asset.status === "ready";
  if (trash) {
    return editable ? h("button", { type: "button", onclick: async () => {
      if (await attempt(() => api("POST", projectPath(slug, "assets", asset.id, "restore")), "Not restored")) route();
    } }, "Restore " + asset.name) : null;
  }
  return [
    ready ? h("button", { type: "button", onclick: () => view(asset) }, "View " + asset.name) : null,
    ready ? h("a", { rel: "ar", href: links.usdz, class: "button" }, "AR (iPhone)") : null,
    editable ? h("button", { type: "button", onclick: async () => {
      const name = prompt("A new name for " + asset.name, asset.name);
      if (!name || name.trim() === asset.name) return;
      if (await attempt(() => api("PATCH", projectPath(slug, "assets", asset.id), { body: { name: name.trim() } }), "Not renamed")) route();
    } }, "Rename " + asset.name) : null,
    editable ? h("button", { type: "button", onclick: async () => {
      if (await attempt(() => api("DELETE", projectPath(slug, "assets", asset.id)), "Not deleted") !== undefined) { say(asset.name + " moved to the trash."); route(); }
    } }, "Delete " + asset.name) : null];
}

/// An asset's card: its thumbnail (or why there is none), name, size and actions.
function assetCard(slug, asset, options) {
  const links = asset.links || {};
  return h("li", { class: "card asset", dataset: { id: asset.id, status: asset.status } },
    asset.status === "ready" ? h("img", { src: withQuery(links.thumbnail, "size", 360), alt: asset.name + " (thumbnail)", width: 180, height: 180, loading: "lazy" })
      : h("div", { class: "placeholder" }, asset.status === "failed" ? "Could not be read" : "Processing…"),
    h("p", { class: "title" }, asset.name),
    h("p", { class: "muted" }, asset.format.toUpperCase() + " · " + (asset.size / 1e6).toFixed(2) + " MB" + (asset.summary ? " · " + asset.summary.triangles.toLocaleString() + " triangles" : "")),
    asset.status === "failed" ? h("p", { class: "error" }, asset.failure || "") : null,
    h("div", { class: "row" }, assetActions(slug, asset, options)));
}

/// The orbit viewer of an asset in a frame, with its links.
function showViewer(viewer, asset) {
  viewer.hidden = false;
  viewer.replaceChildren(h("h2", {}, asset.name), h("iframe", { src: asset.links.viewer, title: "Orbit viewer of " + asset.name, class: "asset-frame" }),
    h("p", {}, h("a", { href: asset.links.viewer, target: "_blank", rel: "noopener" }, "Open the viewer on its own (View in AR on phones)"), " · ",
      h("a", { href: asset.links.glb, download: "" }, "GLB"), " · ", h("a", { href: asset.links.usdz, download: "" }, "USDZ"), " · ",
      h("button", { type: "button", onclick: () => { viewer.hidden = true; } }, "Close viewer")));
  viewer.scrollIntoView({ block: "nearest" });
}

/// The drop zone and the file chooser behind it; `send(files)` gets what is dropped or chosen.
function dropZone(send) {
  const chooser = h("input", { type: "file", accept: ".glb,.usdz,model/gltf-binary,model/vnd.usdz+zip", multiple: true, id: "asset-file", class: "sr", "aria-label": "Choose GLB or USDZ files to upload",
    onchange: (event) => { send([...event.target.files]); event.target.value = ""; } });
  const drop = h("div", { class: "drop", id: "drop-zone", tabindex: 0, role: "button", "aria-label": "Upload models: drop GLB or USDZ files here, or press Enter to choose files",
    onclick: () => chooser.click(), onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); chooser.click(); } },
    ondragover: (event) => { event.preventDefault(); drop.classList.add("over"); },
    ondragleave: () => drop.classList.remove("over"),
    ondrop: (event) => { event.preventDefault(); drop.classList.remove("over"); send([...event.dataTransfer.files]); } },
  "Drop GLB or USDZ files here, or click to choose (up to the server's limit).");
  return [drop, chooser];
}

export async function galleryPage(project, rest) {
  const slug = project.slug, editable = canEdit(project);
  const trash = rest[0] === "trash";
  const { assets } = await api("GET", assetsPath(slug) + (trash ? "?trashed=true" : "?sort=date"));
  const grid = h("ul", { class: "gallery", id: "gallery" });
  const uploads = h("ul", { class: "uploads", "aria-label": "Uploads" });
  const viewer = h("section", { class: "card viewer", id: "asset-viewer", hidden: true });
  const options = { editable, trash, view: (asset) => showViewer(viewer, asset) };
  let polling = 0;
  onLeave(() => clearTimeout(polling));

  /// Shows `list`, and asks again in a second while a model is still being processed.
  const render = (list) => {
    grid.replaceChildren(...list.map((asset) => assetCard(slug, asset, options)));
    if (!list.length) grid.append(h("li", { class: "muted" }, trash ? "The trash is empty." : "No models yet: drop a GLB or USDZ here."));
    const waiting = list.some((asset) => asset.status === "processing");
    clearTimeout(polling);
    if (waiting) polling = setTimeout(async () => {
      const fresh = await api("GET", assetsPath(slug) + "?sort=date").catch(() => null);
      if (fresh) render(fresh.assets);
    }, 1000);
  };

  async function send(files) {
    for (const file of files) {
      if (!/\.(glb|usdz)$/i.test(file.name)) { say(file.name + " is not a GLB or USDZ file.", "error"); continue; }
      const bar = h("progress", { max: 1, value: 0, "aria-label": "Uploading " + file.name });
      const row = h("li", {}, file.name + " ", bar);
      uploads.append(row);
      try {
        await upload(slug, file, (fraction) => { bar.value = fraction; });
        bar.value = 1;
        row.append(" stored; processing…");
        const fresh = await api("GET", assetsPath(slug) + "?sort=date");
        render(fresh.assets);
      } catch (error) {
        row.append(h("span", { class: "error" }, " " + error.message));
      }
    }
  }

  show("Gallery", projectNav(project, "gallery"), h("h1", {}, (trash ? "Trash of the gallery of " : "Gallery of ") + project.name),
    h("p", {}, trash ? h("a", { href: "#/p/" + slug + "/gallery" }, "Back to the gallery") : h("a", { href: "#/p/" + slug + "/gallery/trash" }, "Trash")),
    editable && !trash ? [...dropZone(send), uploads] : null, viewer, grid);
  render(assets);
}
