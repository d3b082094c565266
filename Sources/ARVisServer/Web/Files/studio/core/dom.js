// Elements, labelled fields and canvases: the Studio's only way of making DOM. Nothing here runs
// on import; every function touches `document` only when it is called.

/// h("button", {type: "button", onclick: f}, "Save"): an element; text is always text, never HTML.
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "value") element.value = value;
    else if (key in element && typeof value !== "string") element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/// A labelled input: <label>Text <input …></label>.
export function field(label, attributes) {
  const input = h(attributes.tag || "input", Object.assign({}, attributes, { tag: null }));
  return { label: h("label", { class: "field" }, h("span", {}, label), input), input };
}

/// A canvas sized to its box at the screen's pixel ratio, and its 2D context drawing in CSS
/// pixels; `null` while the canvas has no size (not laid out, or hidden).
export function canvas2D(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth, height = canvas.clientHeight;
  if (!width || !height) return null;
  const pixels = [Math.round(width * ratio), Math.round(height * ratio)];
  const g = canvas.getContext("2d");
  // Setting a canvas's size, even to the one it has, makes its bitmap anew: only a new size does.
  if (canvas.width !== pixels[0] || canvas.height !== pixels[1] || typeof g.reset !== "function") [canvas.width, canvas.height] = pixels;
  else g.reset();
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { g, width, height };
}
