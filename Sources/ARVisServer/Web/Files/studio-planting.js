// ARVis Studio's planting page: the project's areas on a map (OpenStreetMap tiles when the author
// turns them on and the browser can reach them, else a metric grid), drawing and editing areas
// with holes and exclusion zones, the species mix and spacing, plans drawn tree by tree (coloured
// by species, with count and density), trees planted by others appearing live, GeoJSON export.
"use strict";
(function (Studio) {
  const h = Studio.h, api = Studio.api;
  const tileTemplate = (document.querySelector("meta[name=arvis-map-tiles]") || {}).content || "";
  const palette = ["#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#9e9d24", "#ad1457", "#4e342e", "#37474f"];
  const earth = 6378137;

  // --- Web Mercator at fractional zoom: pixels of a 256-pixel world at zoom 0 ---
  const project = (lon, lat) => {
    const s = Math.sin(Math.max(-85.05, Math.min(85.05, lat)) * Math.PI / 180);
    return [(lon + 180) / 360 * 256, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 256];
  };
  const unproject = (x, y) => [x / 256 * 360 - 180, Math.atan(Math.sinh(Math.PI * (1 - 2 * y / 256))) * 180 / Math.PI];

  /// A pannable, zoomable map on a canvas; `layers` draw on it, `onClick(lon, lat)` gets clicks.
  class MapView {
    constructor(options) {
      this.canvas = h("canvas", { class: "map", tabindex: 0, role: "application",
        "aria-label": "Map. Drag or arrow keys to move, wheel or plus and minus to zoom; while drawing, click or Enter adds a vertex at the centre." });
      this.center = options.center;
      this.zoom = options.zoom;
      this.layers = [];
      this.onClick = options.onClick;
      this.tiles = new Map();
      this.useTiles = false;
      let drag = null;
      this.canvas.addEventListener("pointerdown", (event) => { drag = { x: event.clientX, y: event.clientY, moved: false, center: this.center.slice() }; this.canvas.setPointerCapture(event.pointerId); });
      this.canvas.addEventListener("pointermove", (event) => {
        if (!drag) { if (options.onHover) options.onHover(this.lonLat(event)); return; }
        const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
        if (Math.hypot(dx, dy) > 4) drag.moved = true;
        if (drag.moved && !(options.onDrag && options.onDrag(this.lonLat(event), drag))) {
          const scale = Math.pow(2, this.zoom);
          const [cx, cy] = project(drag.center[0], drag.center[1]);
          this.center = unproject(cx - dx / scale, cy - dy / scale);
          this.draw();
        }
      });
      this.canvas.addEventListener("pointerup", (event) => {
        if (drag && !drag.moved && this.onClick) this.onClick(this.lonLat(event));
        if (drag && options.onDragEnd) options.onDragEnd();
        drag = null;
      });
      this.canvas.addEventListener("wheel", (event) => { event.preventDefault(); this.zoomBy(event.deltaY < 0 ? 0.5 : -0.5, this.lonLat(event)); }, { passive: false });
      this.canvas.addEventListener("keydown", (event) => {
        const step = 80 / Math.pow(2, this.zoom);
        const [cx, cy] = project(this.center[0], this.center[1]);
        const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
        if (moves[event.key]) { event.preventDefault(); this.center = unproject(cx + moves[event.key][0], cy + moves[event.key][1]); this.draw(); }
        else if (event.key === "+" || event.key === "=") this.zoomBy(1);
        else if (event.key === "-") this.zoomBy(-1);
        else if (event.key === "Enter" && this.onClick) { event.preventDefault(); this.onClick(this.center.slice()); }
      });
      new ResizeObserver(() => this.draw()).observe(this.canvas);
    }

    zoomBy(delta, around) {
      const zoom = Math.max(2, Math.min(22, this.zoom + delta));
      if (around) {
        const [ax, ay] = project(around[0], around[1]), [cx, cy] = project(this.center[0], this.center[1]);
        const factor = Math.pow(2, this.zoom - zoom);
        this.center = unproject(ax + (cx - ax) * factor, ay + (cy - ay) * factor);
      }
      this.zoom = zoom;
      this.draw();
    }

    /// Canvas pixels of a longitude and latitude.
    toScreen(lon, lat) {
      const scale = Math.pow(2, this.zoom);
      const [x, y] = project(lon, lat), [cx, cy] = project(this.center[0], this.center[1]);
      return [(x - cx) * scale + this.width / 2, (y - cy) * scale + this.height / 2];
    }

    lonLat(event) {
      const rect = this.canvas.getBoundingClientRect();
      const scale = Math.pow(2, this.zoom);
      const [cx, cy] = project(this.center[0], this.center[1]);
      return unproject(cx + (event.clientX - rect.left - rect.width / 2) / scale, cy + (event.clientY - rect.top - rect.height / 2) / scale);
    }

    /// Metres per canvas pixel at the centre.
    get metresPerPixel() { return 2 * Math.PI * earth * Math.cos(this.center[1] * Math.PI / 180) / (256 * Math.pow(2, this.zoom)); }

    fit(points) {
      if (!points.length) return;
      const xs = points.map((p) => project(p[0], p[1]));
      const minX = Math.min(...xs.map((p) => p[0])), maxX = Math.max(...xs.map((p) => p[0]));
      const minY = Math.min(...xs.map((p) => p[1])), maxY = Math.max(...xs.map((p) => p[1]));
      this.center = unproject((minX + maxX) / 2, (minY + maxY) / 2);
      const width = this.canvas.clientWidth || 600, height = this.canvas.clientHeight || 400;
      this.zoom = Math.max(2, Math.min(21, Math.log2(Math.min(width / Math.max(maxX - minX, 1e-9), height / Math.max(maxY - minY, 1e-9)) * 0.8)));
      this.draw();
    }

    draw() {
      const surface = Studio.canvas2D(this.canvas);
      if (!surface) return;
      const g = surface.g;
      this.width = surface.width; this.height = surface.height;
      g.fillStyle = "#f4f6f0"; g.fillRect(0, 0, this.width, this.height);
      if (this.useTiles && tileTemplate) this.drawTiles(g); else this.drawGrid(g);
      for (const layer of this.layers) layer(g, this);
    }

    drawTiles(g) {
      const z = Math.max(0, Math.min(19, Math.round(this.zoom)));
      const scale = Math.pow(2, this.zoom - z), size = 256 * scale;
      const [cx, cy] = project(this.center[0], this.center[1]).map((v) => v * Math.pow(2, z));
      const x0 = Math.floor((cx * 256 / 256 - this.width / 2 / scale) / 256), x1 = Math.floor((cx + this.width / 2 / scale) / 256);
      const y0 = Math.floor((cy - this.height / 2 / scale) / 256), y1 = Math.floor((cy + this.height / 2 / scale) / 256);
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) {
        if (y < 0 || y >= Math.pow(2, z)) continue;
        const wrapped = ((x % Math.pow(2, z)) + Math.pow(2, z)) % Math.pow(2, z);
        const url = tileTemplate.replace("{z}", z).replace("{x}", wrapped).replace("{y}", y);
        let tile = this.tiles.get(url);
        if (!tile) {
          tile = new Image();
          tile.onload = () => this.draw();
          tile.onerror = () => { tile.failed = true; };
          tile.src = url;
          this.tiles.set(url, tile);
        }
        const sx = (x * 256 - cx) * scale + this.width / 2, sy = (y * 256 - cy) * scale + this.height / 2;
        if (tile.complete && !tile.failed && tile.naturalWidth) g.drawImage(tile, sx, sy, size + 0.5, size + 0.5);
      }
      g.fillStyle = "rgba(255,255,255,.8)"; g.fillRect(this.width - 170, this.height - 16, 170, 16);
      g.fillStyle = "#333"; g.font = "11px system-ui"; g.fillText("© OpenStreetMap contributors", this.width - 165, this.height - 4);
    }

    drawGrid(g) {
      const mpp = this.metresPerPixel;
      let step = 1;
      for (const candidate of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000]) { step = candidate; if (candidate / mpp >= 60) break; }
      const pixels = step / mpp;
      g.strokeStyle = "#d7dccf"; g.lineWidth = 1;
      const offsetX = (this.width / 2) % pixels, offsetY = (this.height / 2) % pixels;
      g.beginPath();
      for (let x = offsetX; x < this.width; x += pixels) { g.moveTo(Math.round(x) + 0.5, 0); g.lineTo(Math.round(x) + 0.5, this.height); }
      for (let y = offsetY; y < this.height; y += pixels) { g.moveTo(0, Math.round(y) + 0.5); g.lineTo(this.width, Math.round(y) + 0.5); }
      g.stroke();
      g.fillStyle = "#333"; g.font = "12px system-ui";
      g.fillRect(12, this.height - 18, pixels, 3);
      g.fillText(step >= 1000 ? step / 1000 + " km" : step + " m", 12, this.height - 24);
    }
  }

  // --- GeoJSON rings ---
  /// Every polygon of a GeoJSON object as a list of rings (outer first), each a list of [lon, lat].
  function polygons(geojson) {
    if (!geojson) return [];
    switch (geojson.type) {
      case "Polygon": return [geojson.coordinates];
      case "MultiPolygon": return geojson.coordinates;
      case "Feature": return polygons(geojson.geometry);
      case "FeatureCollection": return (geojson.features || []).flatMap(polygons);
      default: return [];
    }
  }
  const closed = (ring) => ring.length && (ring[0][0] !== ring[ring.length - 1][0] || ring[0][1] !== ring[ring.length - 1][1]) ? ring.concat([ring[0]]) : ring;
  const open = (ring) => ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.slice(0, -1) : ring.slice();

  function drawPolygon(g, map, rings, fill, stroke) {
    g.beginPath();
    for (const ring of rings) ring.forEach((point, index) => { const [x, y] = map.toScreen(point[0], point[1]); if (index) g.lineTo(x, y); else g.moveTo(x, y); });
    g.closePath();
    if (fill) { g.fillStyle = fill; g.fill("evenodd"); }
    g.strokeStyle = stroke; g.lineWidth = 2; g.stroke();
  }

  /// A tree's project-frame position (metres: x right of the heading, z towards the viewer) as [lon, lat].
  function frameToLonLat(frame, position) {
    const heading = (frame.heading || 0) * Math.PI / 180;
    const east = position.x * Math.cos(heading) - position.z * Math.sin(heading);
    const north = -position.x * Math.sin(heading) - position.z * Math.cos(heading);
    return [frame.longitude + east / (earth * Math.cos(frame.latitude * Math.PI / 180)) * 180 / Math.PI, frame.latitude + north / earth * 180 / Math.PI];
  }

  Studio.pages.planting = async (project, rest) => {
    const slug = project.slug, editable = Studio.canEdit(project);
    const [{ areas }, { plans }, { trees }] = await Promise.all([api("GET", Studio.projectPath(slug, "areas")), api("GET", Studio.projectPath(slug, "plans")),
      api("GET", Studio.projectPath(slug, "trees"))]);
    const shapes = new Map(await Promise.all(areas.map(async (area) => [area.id, await api("GET", Studio.projectPath(slug, "areas", area.id, "geojson"))])));
    const state = { selected: areas.some((area) => area.id === rest[0]) ? rest[0] : areas.length ? areas[0].id : null, plan: null, planGeoJSON: null, draft: null, mode: null, trees: new Map(trees.map((tree) => [tree.id, tree])) };
    const frame = project.location;
    const start = frame ? [frame.longitude, frame.latitude] : [-9.14, 38.72];
    const map = new MapView({ center: start, zoom: 17, onClick: (point) => addVertex(point),
      onDrag: (point, drag) => dragVertex(point, drag), onDragEnd: () => { state.dragging = null; } });
    window.studioMap = map;

    // Layers: areas, the draft, the plan's trees, planted trees.
    map.layers.push((g) => {
      for (const area of areas) {
        const shape = shapes.get(area.id);
        if (!shape) continue;
        const chosen = area.id === state.selected;
        for (const rings of polygons(shape.area)) drawPolygon(g, map, rings, chosen ? "rgba(46,125,50,.18)" : "rgba(46,125,50,.07)", chosen ? "#2e7d32" : "#81a784");
        for (const rings of polygons(shape.exclusions)) drawPolygon(g, map, rings, "rgba(198,40,40,.18)", "#c62828");
      }
    });
    map.layers.push((g) => {
      if (!state.plan || !state.planGeoJSON) return;
      const names = state.planSpecies;
      const radius = Math.max(1.5, Math.min(6, (state.planSpacing || 2) / 2 / map.metresPerPixel));
      for (const feature of state.planGeoJSON.features || []) {
        if (!feature.geometry || feature.geometry.type !== "Point") continue;
        const [x, y] = map.toScreen(feature.geometry.coordinates[0], feature.geometry.coordinates[1]);
        if (x < -10 || y < -10 || x > map.width + 10 || y > map.height + 10) continue;
        g.fillStyle = palette[Math.max(0, names.indexOf(speciesOf(feature))) % palette.length];
        g.beginPath(); g.arc(x, y, radius, 0, 2 * Math.PI); g.fill();
      }
    });
    map.layers.push((g) => {
      if (!frame) return;
      g.strokeStyle = "#000"; g.lineWidth = 1.5;
      for (const tree of state.trees.values()) {
        const [lon, lat] = frameToLonLat(frame, tree.position);
        const [x, y] = map.toScreen(lon, lat);
        g.fillStyle = "#ffd54f"; g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI); g.fill(); g.stroke();
      }
    });
    map.layers.push((g) => {
      const draft = state.draft;
      if (!draft) return;
      const rings = [{ ring: draft.outer, kind: "outer" }, ...draft.holes.map((ring) => ({ ring, kind: "hole" })), ...draft.exclusions.map((ring) => ({ ring, kind: "exclusion" }))];
      for (const { ring, kind } of rings) {
        if (!ring.length) continue;
        g.setLineDash(ring === draft.current ? [6, 4] : []);
        drawPolygon(g, map, [ring], kind === "outer" ? "rgba(21,101,192,.15)" : kind === "hole" ? "rgba(255,255,255,.6)" : "rgba(198,40,40,.2)", kind === "exclusion" ? "#c62828" : "#1565c0");
        g.setLineDash([]);
        for (const point of ring) { const [x, y] = map.toScreen(point[0], point[1]); g.fillStyle = "#fff"; g.strokeStyle = "#1565c0"; g.beginPath(); g.arc(x, y, 5, 0, 2 * Math.PI); g.fill(); g.stroke(); }
      }
    });

    // --- Drawing and editing an area ---
    const drawStatus = h("p", { class: "muted", role: "status", "aria-live": "polite", id: "draw-status" });
    const describe = () => {
      const draft = state.draft;
      if (!draft) { drawStatus.textContent = "Not drawing."; return; }
      const what = draft.current === draft.outer ? "the outline" : draft.holes.includes(draft.current) ? "a hole" : "an exclusion zone";
      drawStatus.textContent = "Drawing " + what + ": " + draft.current.length + " vertices. Click the map to add one, drag one to move it; finish with 3 or more.";
      map.canvas.classList.toggle("drawing", !!draft);
    };
    function startDraft(from) {
      const shape = from && shapes.get(from.id);
      const outer = shape ? open((polygons(shape.area)[0] || [[]])[0]) : [];
      state.draft = { outer, holes: shape ? (polygons(shape.area)[0] || []).slice(1).map(open) : [], exclusions: shape ? polygons(shape.exclusions).map((rings) => open(rings[0])) : [], replacing: from || null };
      state.draft.current = outer;
      areaName.input.value = from ? from.name : "Area " + (areas.length + 1);
      describe(); map.draw(); map.canvas.focus();
    }
    function addVertex(point) {
      if (!state.draft || !state.draft.current) return;
      state.draft.current.push(point);
      describe(); map.draw();
    }
    function dragVertex(point, drag) {
      if (!state.draft) return false;
      if (!state.dragging) {
        const [sx, sy] = [drag.x - map.canvas.getBoundingClientRect().left, drag.y - map.canvas.getBoundingClientRect().top];
        for (const ring of [state.draft.outer, ...state.draft.holes, ...state.draft.exclusions]) {
          const index = ring.findIndex((vertex) => { const [x, y] = map.toScreen(vertex[0], vertex[1]); return Math.hypot(x - sx, y - sy) < 9; });
          if (index >= 0) { state.dragging = { ring, index }; break; }
        }
      }
      if (!state.dragging) return false;
      state.dragging.ring[state.dragging.index] = point;
      map.draw();
      return true;
    }
    const newRing = (list) => { if (state.draft.current.length < 3) { Studio.say("Finish the current ring first (3 vertices or more).", "error"); return; } const ring = []; list.push(ring); state.draft.current = ring; describe(); map.canvas.focus(); };
    async function saveDraft() {
      const draft = state.draft;
      if (draft.outer.length < 3) { Studio.say("An area needs 3 vertices or more.", "error"); return; }
      const rings = [draft.outer, ...draft.holes.filter((ring) => ring.length >= 3)].map(closed);
      const body = { name: areaName.input.value.trim() || "Area", area: { type: "Polygon", coordinates: rings } };
      const zones = draft.exclusions.filter((ring) => ring.length >= 3);
      if (zones.length) body.exclusions = { type: "MultiPolygon", coordinates: zones.map((ring) => [closed(ring)]) };
      const created = await Studio.attempt(() => api("POST", Studio.projectPath(slug, "areas"), { body }), "Area not saved");
      if (!created) return;
      if (draft.replacing) await Studio.attempt(() => api("DELETE", Studio.projectPath(slug, "areas", draft.replacing.id)), "The old area was kept");
      Studio.say("Area saved: " + Math.round(created.squareMetres) + " m².");
      Studio.go("#/p/" + slug + "/planting/" + created.id);
    }

    const areaName = Studio.field("Area name", { maxlength: 200, name: "area-name" });
    const drawing = h("fieldset", { class: "card", disabled: !editable }, h("legend", {}, "Draw"),
      areaName.label,
      h("div", { class: "row" },
        h("button", { type: "button", id: "draw-area", onclick: () => startDraft(null) }, "New area"),
        h("button", { type: "button", onclick: () => state.draft && newRing(state.draft.holes) }, "Add a hole"),
        h("button", { type: "button", onclick: () => state.draft && newRing(state.draft.exclusions) }, "Add an exclusion zone"),
        h("button", { type: "button", onclick: () => { if (state.draft && state.draft.current.length) { state.draft.current.pop(); describe(); map.draw(); } } }, "Undo vertex"),
        h("button", { type: "button", class: "primary", id: "save-area", onclick: () => state.draft && saveDraft() }, "Save area"),
        h("button", { type: "button", onclick: () => { state.draft = null; describe(); map.draw(); } }, "Cancel")),
      drawStatus);

    // --- Areas and plans ---
    const chosen = () => areas.find((area) => area.id === state.selected);
    const areaList = h("ul", { class: "list" }, areas.map((area) => h("li", {},
      h("button", { type: "button", class: "link", "aria-pressed": String(area.id === state.selected), onclick: () => { state.selected = area.id; fitArea(); refreshPlans(); map.draw(); } }, area.name),
      " · " + (area.squareMetres / 10000).toFixed(2) + " ha ",
      editable ? h("button", { type: "button", onclick: () => startDraft(area) }, "Edit " + area.name) : null,
      editable ? h("button", { type: "button", onclick: async () => {
        if (!confirm("Delete " + area.name + " and its plans?")) return;
        if (await Studio.attempt(() => api("DELETE", Studio.projectPath(slug, "areas", area.id)), "Not deleted")) Studio.route();
      } }, "Delete " + area.name) : null)));
    if (!areas.length) areaList.append(h("li", { class: "muted" }, "No areas yet: draw one."));

    const speciesRows = h("div", { class: "species" });
    const speciesList = h("datalist", { id: "species-names" });
    const addSpecies = (name, share) => {
      const nameField = h("input", { list: "species-names", value: name || "", "aria-label": "Species", class: "species-name", oninput: (event) => suggestSpecies(event.target.value) });
      const shareField = h("input", { type: "number", min: 0.01, step: "any", value: share || 1, "aria-label": "Share", class: "species-share" });
      const row = h("div", { class: "row" }, nameField, shareField, h("button", { type: "button", "aria-label": "Remove this species", onclick: () => row.remove() }, "×"));
      speciesRows.append(row);
    };
    let speciesTimer = 0;
    const suggestSpecies = (text) => {
      clearTimeout(speciesTimer);
      speciesTimer = setTimeout(async () => {
        const found = await api("GET", "/api/v1/species?q=" + encodeURIComponent(text)).catch(() => ({ species: [] }));
        speciesList.replaceChildren(...found.species.slice(0, 20).map((species) => h("option", { value: species.latinName }, species.englishName + " · " + species.spacing + " m")));
      }, 150);
    };
    addSpecies("", 1);
    const spacing = Studio.field("Spacing (m, blank: each species' own)", { type: "number", min: 0.1, step: "any", name: "spacing" });
    const layout = h("select", { "aria-label": "Layout" }, ["poisson", "hex", "reforestar"].map((value) => h("option", { value }, value)));
    const count = Studio.field("At most (trees, blank: as many as fit)", { type: "number", min: 1, step: 1, name: "count" });
    const planSummary = h("div", { id: "plan-summary", role: "status", "aria-live": "polite" });
    const planList = h("ul", { class: "list" });

    async function generate() {
      if (!state.selected) { Studio.say("Choose or draw an area first.", "error"); return; }
      const species = [...speciesRows.querySelectorAll(".row")].map((row) => ({ name: row.querySelector(".species-name").value.trim(), share: Number(row.querySelector(".species-share").value) || 1 }))
        .filter((item) => item.name);
      const body = { area: state.selected, layout: layout.value };
      if (species.length) body.species = species;
      if (spacing.input.value) body.spacing = Number(spacing.input.value);
      if (count.input.value) body.count = Number(count.input.value);
      planSummary.textContent = "Planning…";
      const plan = await Studio.attempt(() => api("POST", Studio.projectPath(slug, "plans"), { body }), "Not planned");
      if (!plan) { planSummary.textContent = ""; return; }
      plans.push(plan);
      await showPlan(plan);
      refreshPlans();
    }

    const speciesOf = (feature) => (feature.properties || {}).species || "";
    async function showPlan(plan) {
      state.plan = plan;
      state.planGeoJSON = await api("GET", Studio.projectPath(slug, "plans", plan.id));
      state.planSpecies = [...new Set((state.planGeoJSON.features || []).filter((f) => f.geometry && f.geometry.type === "Point").map(speciesOf))];
      state.planSpacing = Number(spacing.input.value) || 2;
      const summary = plan.summary;
      planSummary.replaceChildren(h("p", { id: "plan-count" }, summary.trees.toLocaleString() + " trees · " + summary.perHectare.toFixed(0) + " per hectare · "
        + (summary.squareMetres / 10000).toFixed(2) + " ha" + (summary.shortfall ? " · " + summary.shortfall + " short of the count asked" : "")),
        h("ul", { class: "legend" }, state.planSpecies.map((name, index) => h("li", {}, h("span", { class: "swatch", dataset: { colour: index % palette.length } }), (name || "unnamed") + ": "
          + (summary.perSpecies[index] !== undefined ? summary.perSpecies[index] : "")))),
        h("button", { type: "button", id: "export-plan", onclick: () => exportPlan(plan) }, "Export GeoJSON"));
      planSummary.querySelectorAll(".swatch").forEach((swatch) => { swatch.style.background = palette[Number(swatch.dataset.colour)]; });
      window.studioPlan = { trees: summary.trees, drawn: (state.planGeoJSON.features || []).length };
      map.draw();
    }

    function exportPlan(plan) {
      const blob = new Blob([JSON.stringify(state.planGeoJSON, null, 2)], { type: "application/geo+json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: "plan-" + plan.id + ".geojson" });
      document.body.append(link); link.click(); link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    }

    function refreshPlans() {
      const own = plans.filter((plan) => plan.area === state.selected);
      planList.replaceChildren(...own.map((plan) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => showPlan(plan) },
        new Date(plan.createdAt).toLocaleString()), " · " + plan.summary.trees + " trees")));
      if (!own.length) planList.append(h("li", { class: "muted" }, "No plans for this area yet."));
    }

    function fitArea() {
      const shape = state.selected && shapes.get(state.selected);
      if (shape) map.fit(polygons(shape.area).flat(2).length ? polygons(shape.area).flatMap((rings) => rings[0]) : []);
    }

    // --- Trees planted by others, live (the project's rooms carry tree events) ---
    const liveStatus = h("span", { class: "muted", id: "trees-live" }, frame ? "" : "Set the project's location (Settings) to see planted trees on the map.");
    const treeCount = h("span", { id: "tree-count" }, String(state.trees.size));
    const socket = Studio.joinRoom(slug, "planting", (message) => {
      if (message.type === "tree") state.trees.set(message.tree.id, message.tree);
      else if (message.type === "treeRemoved") state.trees.delete(message.id);
      else return;
      treeCount.textContent = String(state.trees.size);
      map.draw();
    }, (text) => { if (frame) liveStatus.textContent = text; });
    Studio.onLeave(() => socket.close());

    const baseMap = h("select", { "aria-label": "Base map", disabled: !tileTemplate, onchange: (event) => {
      map.useTiles = event.target.value === "tiles";
      localStorage.setItem("arvis.tiles", event.target.value);
      map.draw();
    } }, h("option", { value: "grid" }, "Metric grid (offline)"), h("option", { value: "tiles" }, "OpenStreetMap"));
    if (tileTemplate && localStorage.getItem("arvis.tiles") === "tiles") { baseMap.value = "tiles"; map.useTiles = true; }

    Studio.show("Planting", Studio.projectNav(project, "planting"), h("h1", {}, "Planting in " + project.name),
      h("div", { class: "planting" },
        h("div", { class: "map-wrap" }, map.canvas, h("div", { class: "map-tools" }, baseMap,
          h("button", { type: "button", "aria-label": "Zoom in", onclick: () => map.zoomBy(1) }, "+"),
          h("button", { type: "button", "aria-label": "Zoom out", onclick: () => map.zoomBy(-1) }, "−"),
          h("button", { type: "button", onclick: fitArea }, "Fit area")),
          h("p", { class: "muted" }, "Planted trees: ", treeCount, " ", liveStatus)),
        h("div", { class: "side" },
          h("section", { class: "card" }, h("h2", {}, "Areas"), areaList),
          drawing,
          h("fieldset", { class: "card", disabled: !editable }, h("legend", {}, "Plan"),
            h("p", { class: "muted" }, "Species mix (name and share):"), speciesRows, speciesList,
            h("button", { type: "button", onclick: () => addSpecies("", 1) }, "Add a species"),
            spacing.label, h("label", { class: "field" }, h("span", {}, "Layout"), layout), count.label,
            h("button", { type: "button", class: "primary", id: "generate-plan", onclick: generate }, "Generate plan")),
          h("section", { class: "card" }, h("h2", {}, "Plan"), planSummary, h("h3", {}, "Plans of this area"), planList))));
    describe();
    refreshPlans();
    requestAnimationFrame(() => { if (state.selected) fitArea(); else map.draw(); });
  };

  Studio.MapView = MapView;
})(window.Studio);
