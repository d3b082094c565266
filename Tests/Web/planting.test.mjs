// The planting page's pure parts: GeoJSON rings (studio/planting/geojson.js), the area being
// drawn (studio/planting/draft.js) and plans (studio/planting/plan-data.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { areaBody, describeDraft, newDraft, rings, vertexNear } from "../../Sources/ARVisServer/Web/Files/studio/planting/draft.js";
import { closed, open, polygons } from "../../Sources/ARVisServer/Web/Files/studio/planting/geojson.js";
import { colourOf, palette, planBody, planSpecies, speciesOf, treesOf } from "../../Sources/ARVisServer/Web/Files/studio/planting/plan-data.js";

const square = [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]];
const hole = [[0.2, 0.2], [0.4, 0.2], [0.4, 0.4], [0.2, 0.2]];
const zone = [[0.6, 0.6], [0.8, 0.6], [0.8, 0.8], [0.6, 0.6]];

test("every polygon of any GeoJSON object, as lists of rings", () => {
  assert.deepEqual(polygons({ type: "Polygon", coordinates: [square, hole] }), [[square, hole]]);
  assert.deepEqual(polygons({ type: "MultiPolygon", coordinates: [[square], [zone]] }), [[square], [zone]]);
  assert.deepEqual(polygons({ type: "Feature", geometry: { type: "Polygon", coordinates: [square] } }), [[square]]);
  assert.deepEqual(polygons({ type: "FeatureCollection", features: [{ type: "Feature", geometry: { type: "Polygon", coordinates: [square] } },
    { type: "Feature", geometry: { type: "Point", coordinates: [0, 0] } }, { type: "Feature", geometry: { type: "MultiPolygon", coordinates: [[zone]] } }] }), [[square], [zone]]);
  assert.deepEqual(polygons({ type: "FeatureCollection" }), []);
  assert.deepEqual(polygons(null), []);
  assert.deepEqual(polygons({ type: "LineString", coordinates: [] }), []);
});

test("rings close for GeoJSON and open for editing", () => {
  assert.deepEqual(closed([[0, 0], [1, 0], [1, 1]]), [[0, 0], [1, 0], [1, 1], [0, 0]]);
  assert.deepEqual(closed(square), square, "a closed ring stays as it is");
  assert.deepEqual(closed([]), []);
  assert.deepEqual(open(square), square.slice(0, -1));
  assert.deepEqual(open([[0, 0]]), [[0, 0]], "one point is not a closed ring");
  const ring = [[0, 0], [1, 1]];
  assert.notEqual(open(ring), ring, "opening copies");
});

test("a new draft is empty and draws the outline", () => {
  const draft = newDraft(null, null);
  assert.deepEqual(draft, { outer: [], holes: [], exclusions: [], replacing: null, current: draft.outer });
  assert.equal(draft.current, draft.outer);
  assert.equal(describeDraft(draft), "Drawing the outline: 0 vertices. Click the map to add one, drag one to move it; finish with 3 or more.");
  assert.equal(describeDraft(null), "Not drawing.");
});

test("a draft of an area opens its outline, holes and exclusion zones", () => {
  const area = { id: "a1", name: "Meadow" };
  const draft = newDraft({ area: { type: "Polygon", coordinates: [square, hole] }, exclusions: { type: "MultiPolygon", coordinates: [[zone]] } }, area);
  assert.deepEqual(draft.outer, square.slice(0, -1));
  assert.deepEqual(draft.holes, [hole.slice(0, -1)]);
  assert.deepEqual(draft.exclusions, [zone.slice(0, -1)]);
  assert.equal(draft.replacing, area);
  assert.deepEqual(rings(draft), [draft.outer, ...draft.holes, ...draft.exclusions]);
  draft.current = draft.holes[0];
  assert.match(describeDraft(draft), /^Drawing a hole: 3 vertices/);
  draft.current = draft.exclusions[0];
  assert.match(describeDraft(draft), /^Drawing an exclusion zone: 3 vertices/);
  assert.deepEqual(newDraft({ area: null, exclusions: null }, area).outer, [], "a shape without an area");
});

test("the saved area closes its rings and leaves out holes and zones under 3 vertices", () => {
  const draft = { outer: [[0, 0], [1, 0], [1, 1]], holes: [[[0.1, 0.1], [0.2, 0.1], [0.2, 0.2]], [[0.5, 0.5]], [[0.5, 0.5], [0.6, 0.5]]], exclusions: [[[0.7, 0.7], [0.8, 0.7]]] };
  assert.deepEqual(areaBody(draft, "Meadow"), { name: "Meadow", area: { type: "Polygon", coordinates: [
    [[0, 0], [1, 0], [1, 1], [0, 0]], [[0.1, 0.1], [0.2, 0.1], [0.2, 0.2], [0.1, 0.1]]] } });
  draft.exclusions.push([[0.6, 0.6], [0.8, 0.6], [0.8, 0.8]]);
  assert.deepEqual(areaBody(draft, "").exclusions, { type: "MultiPolygon", coordinates: [[[[0.6, 0.6], [0.8, 0.6], [0.8, 0.8], [0.6, 0.6]]]] });
  assert.equal(areaBody(draft, "").name, "Area", "a blank name");
  assert.equal(areaBody({ outer: [[0, 0], [1, 1]], holes: [], exclusions: [] }, "x"), null, "an outline needs 3 vertices");
});

test("the vertex under the pointer: the first within the radius, outline first", () => {
  const draft = { outer: [[0, 0], [10, 0]], holes: [[[10, 1]]], exclusions: [] };
  const identity = (x, y) => [x, y];
  assert.deepEqual(vertexNear(draft, identity, 9, 0.5, 9), { ring: draft.outer, index: 1 });
  assert.deepEqual(vertexNear(draft, identity, 10, 2, 1.5), { ring: draft.holes[0], index: 0 });
  assert.equal(vertexNear(draft, identity, 30, 30, 9), null);
  assert.equal(vertexNear(draft, identity, 0, 9, 9), null, "the radius is exclusive");
});

test("a plan's request: the named species with their shares, and spacing and count when given", () => {
  assert.deepEqual(planBody({ area: "a1", layout: "hex", species: [{ name: " Quercus ilex ", share: "2" }, { name: "", share: "5" }, { name: "Pinus pinea", share: "" }, { name: "Olea", share: "-" }], spacing: "2.5", count: "" }),
    { area: "a1", layout: "hex", species: [{ name: "Quercus ilex", share: 2 }, { name: "Pinus pinea", share: 1 }, { name: "Olea", share: 1 }], spacing: 2.5 });
  assert.deepEqual(planBody({ area: "a1", layout: "poisson", species: [{ name: "  ", share: "1" }], spacing: "", count: "300" }), { area: "a1", layout: "poisson", count: 300 });
});

test("a plan's species, in the order they first appear, and their colours", () => {
  const tree = (species) => ({ type: "Feature", geometry: { type: "Point", coordinates: [0, 0] }, properties: species === undefined ? {} : { species } });
  const plan = { type: "FeatureCollection", features: [tree("Quercus"), { type: "Feature", geometry: { type: "Polygon", coordinates: [square] }, properties: { species: "Area" } }, tree("Pinus"), tree("Quercus"), tree(undefined), { type: "Feature", geometry: null }] };
  assert.equal(treesOf(plan).length, 4);
  assert.deepEqual(planSpecies(plan), ["Quercus", "Pinus", ""]);
  assert.equal(speciesOf({ properties: null }), "");
  assert.equal(colourOf(["Quercus", "Pinus"], "Pinus"), palette[1]);
  assert.equal(colourOf(["Quercus"], "Unknown"), palette[0]);
  const many = Array.from({ length: 12 }, (_, index) => "s" + index);
  assert.equal(colourOf(many, "s11"), palette[1], "colours repeat after ten species");
  assert.deepEqual(planSpecies({ type: "FeatureCollection" }), []);
});
