// A pane's mesh: a rounded rectangle (Bubble Vision's 0.6 × 0.4 m with 0.02 m corners) as rings
// around its centre, so the wobble bends its inside too: a centre vertex, then `rings` copies of
// the outline scaled 1/rings, 2/rings … 1, each of the same `outline` points, joined ring to ring.
// With the defaults, 216 vertices and 387 triangles. Vertices are [x, y, u, v] in metres and in
// [0, 1]² over the pane; it lies in z = 0 facing +z.

/// The seed's pane: width, height and corner radius in metres.
export const paneSize = [0.6, 0.4];
export const cornerRadius = 0.02;

/// The outline of a `width` × `height` rectangle with corners of `radius`, centred on the origin,
/// counter-clockwise from the right edge's middle: `arcSegments` segments on each corner and the
/// straight edges cut in pieces no longer than `step`, as a flat [x, y, …] array.
export function roundedOutline(width, height, radius, { arcSegments = 4, step = 0.075 } = {}) {
  const w = width / 2 - radius, h = height / 2 - radius, points = [];
  const edge = (from, to) => {
    const pieces = Math.max(1, Math.ceil(Math.hypot(to[0] - from[0], to[1] - from[1]) / step));
    for (let k = 0; k < pieces; k++) points.push(from[0] + (to[0] - from[0]) * k / pieces, from[1] + (to[1] - from[1]) * k / pieces);
  };
  const corners = [[w, h, 0], [-w, h, 1], [-w, -h, 2], [w, -h, 3]];
  edge([width / 2, 0], [width / 2, h]);
  for (const [cx, cy, quarter] of corners) {
    for (let k = 0; k < arcSegments; k++) {
      const angle = (quarter + k / arcSegments) * Math.PI / 2;
      points.push(cx + radius * Math.cos(angle), cy + radius * Math.sin(angle));
    }
    const next = corners[(quarter + 1) % 4], end = (quarter + 1) * Math.PI / 2;
    const from = [cx + radius * Math.cos(end), cy + radius * Math.sin(end)];
    const to = quarter === 3 ? [width / 2, 0] : [next[0] + radius * Math.cos(end), next[1] + radius * Math.sin(end)];
    edge(from, to);
  }
  return points;
}

/// The pane's mesh: {vertices: Float32Array of [x, y, u, v], indices: Uint16Array}.
export function paneMesh({ width = paneSize[0], height = paneSize[1], radius = cornerRadius, rings = 5 } = {}) {
  const outline = roundedOutline(width, height, radius), count = outline.length / 2;
  const vertices = [0, 0, 0.5, 0.5];
  for (let ring = 1; ring <= rings; ring++) {
    const scale = ring / rings;
    for (let k = 0; k < count; k++) {
      const x = outline[2 * k] * scale, y = outline[2 * k + 1] * scale;
      vertices.push(x, y, x / width + 0.5, y / height + 0.5);
    }
  }
  const indices = [];
  for (let k = 0; k < count; k++) indices.push(0, 1 + k, 1 + (k + 1) % count);
  for (let ring = 1; ring < rings; ring++) {
    const inner = 1 + (ring - 1) * count, outer = inner + count;
    for (let k = 0; k < count; k++) {
      const next = (k + 1) % count;
      indices.push(inner + k, outer + k, outer + next, inner + k, outer + next, inner + next);
    }
  }
  return { vertices: new Float32Array(vertices), indices: new Uint16Array(indices) };
}
