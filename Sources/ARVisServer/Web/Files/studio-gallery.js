// ARVis Studio's gallery: the project's 3D models as a grid of thumbnails, drag-and-drop (or
// chosen) uploads with a progress bar, the orbit viewer, AR links, rename, trash and restore.
"use strict";
(function (Studio) {
  const h = Studio.h, api = Studio.api;

  /// Sends `file` with XMLHttpRequest, whose upload reports progress (fetch's does not).
  function upload(slug, file, onProgress) {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", Studio.projectPath(slug, "assets") + "?name=" + encodeURIComponent(file.name.replace(/\.(glb|usdz)$/i, "") || file.name));
      if (Studio.session.token) request.setRequestHeader("Authorization", "Bearer " + Studio.session.token);
      request.setRequestHeader("Content-Type", /\.usdz$/i.test(file.name) ? "model/vnd.usdz+zip" : /\.glb$/i.test(file.name) ? "model/gltf-binary" : "application/octet-stream");
      request.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
      request.onload = () => {
        let body = null;
        try { body = JSON.parse(request.responseText); } catch (error) { body = null; }
        if (request.status >= 200 && request.status < 300) resolve(body); else reject(new Studio.APIError(request.status, body));
      };
      request.onerror = () => reject(new Studio.APIError(0, { error: { message: "the upload was cut off" } }));
      request.send(file);
    });
  }

  Studio.pages.gallery = async (project, rest) => {
    const slug = project.slug, editable = Studio.canEdit(project);
    const showTrash = rest[0] === "trash";
    const { assets } = await api("GET", Studio.projectPath(slug, "assets") + (showTrash ? "?trashed=true" : "?sort=date"));
    const grid = h("ul", { class: "gallery", id: "gallery" });
    const uploads = h("ul", { class: "uploads", "aria-label": "Uploads" });
    const viewer = h("section", { class: "card viewer", id: "asset-viewer", hidden: true });
    let polling = 0;
    Studio.onLeave(() => clearTimeout(polling));

    const card = (asset) => {
      const links = asset.links || {};
      const ready = asset.status === "ready";
      return h("li", { class: "card asset", dataset: { id: asset.id, status: asset.status } },
        ready ? h("img", { src: Studio.withToken(links.thumbnail + "?size=360"), alt: asset.name + " (thumbnail)", width: 180, height: 180, loading: "lazy" })
          : h("div", { class: "placeholder" }, asset.status === "failed" ? "Could not be read" : "Processing…"),
        h("p", { class: "title" }, asset.name),
        h("p", { class: "muted" }, asset.format.toUpperCase() + " · " + (asset.size / 1e6).toFixed(2) + " MB" + (asset.summary ? " · " + asset.summary.triangles.toLocaleString() + " triangles" : "")),
        asset.status === "failed" ? h("p", { class: "error" }, asset.failure || "") : null,
        h("div", { class: "row" },
          showTrash ? (editable ? h("button", { type: "button", onclick: async () => {
            if (await Studio.attempt(() => api("POST", Studio.projectPath(slug, "assets", asset.id, "restore")), "Not restored")) Studio.route();
          } }, "Restore " + asset.name) : null) : [
            ready ? h("button", { type: "button", onclick: () => view(asset) }, "View " + asset.name) : null,
            ready ? h("a", { rel: "ar", href: Studio.withToken(links.usdz), class: "button" }, "AR (iPhone)") : null,
            editable ? h("button", { type: "button", onclick: async () => {
              const name = prompt("A new name for " + asset.name, asset.name);
              if (!name || name.trim() === asset.name) return;
              if (await Studio.attempt(() => api("PATCH", Studio.projectPath(slug, "assets", asset.id), { body: { name: name.trim() } }), "Not renamed")) Studio.route();
            } }, "Rename " + asset.name) : null,
            editable ? h("button", { type: "button", onclick: async () => {
              if (await Studio.attempt(() => api("DELETE", Studio.projectPath(slug, "assets", asset.id)), "Not deleted") !== undefined) { Studio.say(asset.name + " moved to the trash."); Studio.route(); }
            } }, "Delete " + asset.name) : null]));
    };

    function view(asset) {
      viewer.hidden = false;
      viewer.replaceChildren(h("h2", {}, asset.name), h("iframe", { src: Studio.withToken(asset.links.viewer), title: "Orbit viewer of " + asset.name, class: "asset-frame" }),
        h("p", {}, h("a", { href: Studio.withToken(asset.links.viewer), target: "_blank", rel: "noopener" }, "Open the viewer on its own (View in AR on phones)"), " · ",
          h("a", { href: Studio.withToken(asset.links.glb), download: "" }, "GLB"), " · ", h("a", { href: Studio.withToken(asset.links.usdz), download: "" }, "USDZ"), " · ",
          h("button", { type: "button", onclick: () => { viewer.hidden = true; } }, "Close viewer")));
      viewer.scrollIntoView({ block: "nearest" });
    }

    const render = (list) => {
      grid.replaceChildren(...list.map(card));
      if (!list.length) grid.append(h("li", { class: "muted" }, showTrash ? "The trash is empty." : "No models yet: drop a GLB or USDZ here."));
      const waiting = list.some((asset) => asset.status === "processing");
      clearTimeout(polling);
      if (waiting) polling = setTimeout(async () => {
        const fresh = await api("GET", Studio.projectPath(slug, "assets") + "?sort=date").catch(() => null);
        if (fresh) render(fresh.assets);
      }, 1000);
    };

    async function send(files) {
      for (const file of files) {
        if (!/\.(glb|usdz)$/i.test(file.name)) { Studio.say(file.name + " is not a GLB or USDZ file.", "error"); continue; }
        const bar = h("progress", { max: 1, value: 0, "aria-label": "Uploading " + file.name });
        const row = h("li", {}, file.name + " ", bar);
        uploads.append(row);
        try {
          await upload(slug, file, (fraction) => { bar.value = fraction; });
          bar.value = 1;
          row.append(" stored; processing…");
          const fresh = await api("GET", Studio.projectPath(slug, "assets") + "?sort=date");
          render(fresh.assets);
        } catch (error) {
          row.append(h("span", { class: "error" }, " " + error.message));
        }
      }
    }

    const chooser = h("input", { type: "file", accept: ".glb,.usdz,model/gltf-binary,model/vnd.usdz+zip", multiple: true, id: "asset-file", class: "sr", "aria-label": "Choose GLB or USDZ files to upload",
      onchange: (event) => { send([...event.target.files]); event.target.value = ""; } });
    const drop = h("div", { class: "drop", id: "drop-zone", tabindex: 0, role: "button", "aria-label": "Upload models: drop GLB or USDZ files here, or press Enter to choose files",
      onclick: () => chooser.click(), onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); chooser.click(); } },
      ondragover: (event) => { event.preventDefault(); drop.classList.add("over"); },
      ondragleave: () => drop.classList.remove("over"),
      ondrop: (event) => { event.preventDefault(); drop.classList.remove("over"); send([...event.dataTransfer.files]); } },
    "Drop GLB or USDZ files here, or click to choose (up to the server's limit).");

    Studio.show("Gallery", Studio.projectNav(project, "gallery"), h("h1", {}, (showTrash ? "Trash of the gallery of " : "Gallery of ") + project.name),
      h("p", {}, showTrash ? h("a", { href: "#/p/" + slug + "/gallery" }, "Back to the gallery") : h("a", { href: "#/p/" + slug + "/gallery/trash" }, "Trash")),
      editable && !showTrash ? [drop, chooser, uploads] : null, viewer, grid);
    render(assets);
  };
})(window.Studio);
