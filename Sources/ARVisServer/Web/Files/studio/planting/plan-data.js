// Planting plans as the page asks for and draws them: the request, the species of a plan's trees
// and their colours. Pure.

/// The colours of a plan's species, in the order they first appear.
export const palette = ["#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#9e9d24", "#ad1457", "#4e342e", "#37474f"];

/// The body of the request that plans area `area` with `layout`, from the form's text: `species`
/// rows ({name, share}; unnamed rows left out, a share that is not a positive number taken as 1),
/// `spacing` and `count` (blank: left to the server).
export function planBody({ area, layout, species, spacing, count }) {
  const mix = species.map((row) => ({ name: row.name.trim(), share: Number(row.share) || 1 })).filter((item) => item.name);
  const body = { area, layout };
  if (mix.length) body.species = mix;
  if (spacing) body.spacing = Number(spacing);
  if (count) body.count = Number(count);
  return body;
}

/// The species of a plan's feature ("" for none).
export const speciesOf = (feature) => (feature.properties || {}).species || "";

/// A plan's tree features (its points).
export const treesOf = (geojson) => (geojson.features || []).filter((feature) => feature.geometry && feature.geometry.type === "Point");

/// The species of a plan's trees, each once, in the order they first appear.
export const planSpecies = (geojson) => [...new Set(treesOf(geojson).map(speciesOf))];

/// The colour of a tree of `species` among a plan's `names` (the first colour for one not among them).
export const colourOf = (names, species) => palette[Math.max(0, names.indexOf(species)) % palette.length];
