// The preview's widgets and scene panels. The newest drawings are kept; the open panel shows them
// now, a hidden one when it is opened (a spec of hundreds of widgets would otherwise load hundreds
// of frames on every edit).

import { h } from "../core/dom.js";

/// How many widgets are shown before "Show all".
const firstWidgets = 12;

function widgetFigure(widget, index) {
  const frame = h("iframe", { src: widget.html, title: "Widget " + (index + 1) + ": " + widget.name, sandbox: "allow-scripts", loading: "lazy", class: "widget" });
  const width = Math.max(120, widget.width || 320), height = Math.max(60, widget.height || 200);
  frame.style.aspectRatio = width + " / " + height;
  frame.style.maxWidth = width + "px";
  return h("figure", {}, frame, h("figcaption", {}, widget.name, " · ", h("a", { href: widget.svg, target: "_blank", rel: "noopener" }, "SVG")));
}

/// {widgets, scene (the panels' elements), update(result), opened(id)}: `update` with the
/// server's drawings, `opened` when the tab `id` is chosen.
export function previewPanels() {
  const widgets = h("div", { class: "widgets", id: "preview-widgets" });
  const scene = h("div", { class: "scene", id: "preview-scene" });
  let drawn = null, shown = {}, open = null, allWidgets = false;

  function showOpen() {
    if (!drawn || !open || shown[open] === drawn.preview.id) return;
    shown[open] = drawn.preview.id;
    if (open === "widgets") showWidgets(drawn.preview);
    if (open === "scene") showScene(drawn);
  }

  function showWidgets(preview) {
    const frames = preview.widgets.slice(0, allWidgets ? Infinity : firstWidgets).map(widgetFigure);
    const more = preview.widgets.length > frames.length ? h("button", { type: "button", onclick: () => {
      allWidgets = true; shown.widgets = null; showOpen();
    } }, "Show all " + preview.widgets.length + " widgets") : null;
    widgets.replaceChildren(...(preview.problem ? [h("p", { class: "error" }, preview.problem)] : []), ...frames, ...(more ? [more] : []));
    if (!preview.widgets.length && !preview.problem) widgets.replaceChildren(h("p", { class: "muted" }, "This spec has no widgets."));
  }

  function showScene(result) {
    scene.replaceChildren(result.preview.scene ? h("iframe", { src: result.preview.scene, title: "3D scene: targets, widgets and placements", class: "scene-view" })
      : h("p", { class: "muted" }, "A " + result.kind + " has no scene: the scene is drawn for environments."));
  }

  return {
    widgets,
    scene,
    update(result) {
      if (drawn && drawn.preview.id === result.preview.id) return;
      drawn = result;
      shown = {};
      showOpen();
    },
    opened(id) { open = id; showOpen(); },
  };
}
