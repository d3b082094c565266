// A pannable, zoomable map on a canvas: OpenStreetMap tiles when the author turns them on and the
// browser can reach them (the page's arvis-map-tiles template), else a metric grid; `layers`
// draw on it.

import { canvas2D, h } from "../core/dom.js";
import { fit, gridStep, metresPerPixel, shift, tilesInView, tileURL, toLonLat, toScreen, zoomBy } from "./projection.js";

/// The tile URL template the server configured, or "" for the metric grid only.
export const tileTemplate = () => (document.querySelector("meta[name=arvis-map-tiles]") || {}).content || "";

export class MapView {
  /// Options: `center` ([lon, lat]) and `zoom`; `onClick(lonLat)` for clicks (and Enter, at the
  /// centre); `onHover(lonLat)`; `onDrag(lonLat, drag)` returning true when it took the drag (the
  /// map then does not pan); `onDragEnd()`.
  constructor(options) {
    this.canvas = h("canvas", { class: "map", tabindex: 0, role: "application",
      "aria-label": "Map. Drag or arrow keys to move, wheel or plus and minus to zoom; while drawing, click or Enter adds a vertex at the centre." });
    this.center = options.center;
    this.zoom = options.zoom;
    this.layers = [];
    this.onClick = options.onClick;
    this.tiles = new Map();
    this.tileTemplate = tileTemplate();
    this.useTiles = false;
    this.width = 0; this.height = 0;
    this.listen(options);
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  listen(options) {
    let drag = null;
    this.canvas.addEventListener("pointerdown", (event) => { drag = { x: event.clientX, y: event.clientY, moved: false, center: this.center.slice() }; this.canvas.setPointerCapture(event.pointerId); });
    this.canvas.addEventListener("pointermove", (event) => {
      if (!drag) { if (options.onHover) options.onHover(this.lonLat(event)); return; }
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (Math.hypot(dx, dy) > 4) drag.moved = true;
      if (drag.moved && !(options.onDrag && options.onDrag(this.lonLat(event), drag))) {
        this.center = shift(drag.center, this.zoom, -dx, -dy);
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
      const moves = { ArrowLeft: [-80, 0], ArrowRight: [80, 0], ArrowUp: [0, -80], ArrowDown: [0, 80] };
      if (moves[event.key]) { event.preventDefault(); this.center = shift(this.center, this.zoom, moves[event.key][0], moves[event.key][1]); this.draw(); }
      else if (event.key === "+" || event.key === "=") this.zoomBy(1);
      else if (event.key === "-") this.zoomBy(-1);
      else if (event.key === "Enter" && this.onClick) { event.preventDefault(); this.onClick(this.center.slice()); }
    });
  }

  /// The view as projection.js takes it.
  get view() { return { center: this.center, zoom: this.zoom, width: this.width, height: this.height }; }

  zoomBy(delta, around) {
    Object.assign(this, zoomBy(this.center, this.zoom, delta, around));
    this.draw();
  }

  /// Canvas pixels of a longitude and latitude.
  toScreen(lon, lat) { return toScreen(this.view, lon, lat); }

  /// The longitude and latitude under a pointer event.
  lonLat(event) {
    const rect = this.canvas.getBoundingClientRect();
    return toLonLat({ center: this.center, zoom: this.zoom, width: rect.width, height: rect.height }, event.clientX - rect.left, event.clientY - rect.top);
  }

  /// Metres per canvas pixel at the centre.
  get metresPerPixel() { return metresPerPixel(this.center, this.zoom); }

  /// Shows every one of `points` ([lon, lat]).
  fit(points) {
    const fitted = fit(points, this.canvas.clientWidth || 600, this.canvas.clientHeight || 400);
    if (!fitted) return;
    Object.assign(this, fitted);
    this.draw();
  }

  /// Draws once at the next animation frame, however often it is asked for before then (a burst of
  /// live trees redraws the map once).
  redraw() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.draw(); });
  }

  draw() {
    const surface = canvas2D(this.canvas);
    if (!surface) return;
    const g = surface.g;
    this.width = surface.width; this.height = surface.height;
    g.fillStyle = "#f4f6f0"; g.fillRect(0, 0, this.width, this.height);
    if (this.useTiles && this.tileTemplate) this.drawTiles(g); else this.drawGrid(g);
    for (const layer of this.layers) layer(g, this);
  }

  /// The tiles in view (each loaded once, drawn when it arrives) and their attribution.
  drawTiles(g) {
    for (const place of tilesInView(this.view)) {
      const url = tileURL(this.tileTemplate, place);
      let tile = this.tiles.get(url);
      if (!tile) {
        tile = new Image();
        tile.onload = () => this.draw();
        tile.onerror = () => { tile.failed = true; };
        tile.src = url;
        this.tiles.set(url, tile);
      }
      if (tile.complete && !tile.failed && tile.naturalWidth) g.drawImage(tile, place.left, place.top, place.size + 0.5, place.size + 0.5);
    }
    g.fillStyle = "rgba(255,255,255,.8)"; g.fillRect(this.width - 170, this.height - 16, 170, 16);
    g.fillStyle = "#333"; g.font = "11px system-ui"; g.fillText("© OpenStreetMap contributors", this.width - 165, this.height - 4);
  }

  /// Grid lines a round number of metres apart through the centre, and a scale bar.
  drawGrid(g) {
    const { pixels, label } = gridStep(this.metresPerPixel);
    g.strokeStyle = "#d7dccf"; g.lineWidth = 1;
    const offsetX = (this.width / 2) % pixels, offsetY = (this.height / 2) % pixels;
    g.beginPath();
    for (let x = offsetX; x < this.width; x += pixels) { g.moveTo(Math.round(x) + 0.5, 0); g.lineTo(Math.round(x) + 0.5, this.height); }
    for (let y = offsetY; y < this.height; y += pixels) { g.moveTo(0, Math.round(y) + 0.5); g.lineTo(this.width, Math.round(y) + 0.5); }
    g.stroke();
    g.fillStyle = "#333"; g.font = "12px system-ui";
    g.fillRect(12, this.height - 18, pixels, 3);
    g.fillText(label, 12, this.height - 24);
  }
}
