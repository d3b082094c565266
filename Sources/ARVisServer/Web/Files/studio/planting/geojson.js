// GeoJSON polygons as the planting map draws and edits them: rings of [lon, lat]. Pure.

/// Every polygon of a GeoJSON object as a list of rings (outer first), each a list of [lon, lat].
export function polygons(geojson) {
  if (!geojson) return [];
  switch (geojson.type) {
    case "Polygon": return [geojson.coordinates];
    case "MultiPolygon": return geojson.coordinates;
    case "Feature": return polygons(geojson.geometry);
    case "FeatureCollection": return (geojson.features || []).flatMap(polygons);
    default: return [];
  }
}

/// `ring` closed (its first point repeated at its end), as GeoJSON wants it.
export const closed = (ring) => ring.length && (ring[0][0] !== ring[ring.length - 1][0] || ring[0][1] !== ring[ring.length - 1][1]) ? ring.concat([ring[0]]) : ring;

/// A copy of `ring` open (without the repeated last point), as it is edited.
export const open = (ring) => ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.slice(0, -1) : ring.slice();
