"""Independent check of `arvis plant` output: every tree inside the area, outside its holes and the
exclusion zones, no two trees closer than the larger of their spacings, standing trees kept clear.

Positions are projected with this script's own WGS84 -> ECEF -> east-north-up code (numpy), around a
different origin than ARVis uses; containment is even-odd ray casting; distances come from a KD-tree.

Usage: python3 Scripts/check_plan.py AREA.geojson PLAN.geojson [ZONES.geojson ...] [--count N]
Needs numpy and scipy. Prints one line per check and ends with `N passed, N failed`.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
from scipy.spatial import cKDTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks  # noqa: E402

A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)


def ecef(lon, lat):
    phi, lam = np.radians(lat), np.radians(lon)
    n = A / np.sqrt(1 - E2 * np.sin(phi) ** 2)
    return np.stack([n * np.cos(phi) * np.cos(lam), n * np.cos(phi) * np.sin(lam), n * (1 - E2) * np.sin(phi)], axis=-1)


class Frame:
    def __init__(self, lon, lat):
        self.origin = ecef(np.array(lon), np.array(lat))
        phi, lam = math.radians(lat), math.radians(lon)
        self.east = np.array([-math.sin(lam), math.cos(lam), 0])
        self.north = np.array([-math.sin(phi) * math.cos(lam), -math.sin(phi) * math.sin(lam), math.cos(phi)])

    def project(self, lonlat):
        d = ecef(np.asarray(lonlat)[:, 0], np.asarray(lonlat)[:, 1]) - self.origin
        return np.stack([d @ self.east, d @ self.north], axis=-1)


def geometries(document):
    if document["type"] == "FeatureCollection":
        for feature in document["features"]:
            yield from geometries(feature)
    elif document["type"] == "Feature":
        if document.get("geometry"):
            for geometry in geometries(document["geometry"]):
                yield geometry[0], geometry[1], document.get("properties") or {}
    elif document["type"] == "GeometryCollection":
        for member in document["geometries"]:
            yield from geometries(member)
    else:
        yield document["type"], document["coordinates"], {}


def polygons(document):
    for kind, coordinates, _ in geometries(document):
        if kind == "Polygon":
            yield coordinates
        elif kind == "MultiPolygon":
            yield from coordinates


def points(document):
    for kind, coordinates, properties in geometries(document):
        if kind == "Point":
            yield coordinates, properties


def inside(ring, xy):
    """Even-odd ray casting of many points against one ring."""
    ring = np.asarray(ring)
    x, y = xy[:, 0], xy[:, 1]
    result = np.zeros(len(xy), dtype=bool)
    for (ax, ay), (bx, by) in zip(ring, np.roll(ring, -1, axis=0)):
        crosses = (ay > y) != (by > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = (bx - ax) * (y - ay) / (by - ay) + ax
        result ^= crosses & (x < at)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("area")
    parser.add_argument("plan")
    parser.add_argument("zones", nargs="*")
    parser.add_argument("--count", type=int)
    options = parser.parse_args()
    check = Checks()
    area = json.load(open(options.area))
    plan = json.load(open(options.plan))
    zone_documents = [json.load(open(path)) for path in options.zones]

    first = next(polygons(area))[0][0]
    frame = Frame(first[0] + 0.001, first[1] + 0.001)
    trees = list(points(plan))
    check.require(f"{options.plan} has trees", trees, "(none)")
    xy = frame.project([coordinates[:2] for coordinates, _ in trees])
    spacing = np.array([properties["spacing"] for _, properties in trees], dtype=float)

    planted = np.zeros(len(xy), dtype=bool)
    for polygon in polygons(area):
        rings = [frame.project([p[:2] for p in ring]) for ring in polygon]
        here = inside(rings[0], xy)
        for hole in rings[1:]:
            here &= ~inside(hole, xy)
        planted |= here
    check(f"all {len(trees)} trees inside the area, none in a hole", planted.all(), f"{(~planted).sum()} trees outside the area or in a hole")
    for path, document in zip(options.zones, zone_documents):
        excluded = np.zeros(len(xy), dtype=bool)
        for polygon in polygons(document):
            rings = [frame.project([p[:2] for p in ring]) for ring in polygon]
            here = inside(rings[0], xy)
            for hole in rings[1:]:
                here &= ~inside(hole, xy)
            excluded |= here
        check(f"no tree in the exclusion zones of {path}", not excluded.any(), f"{excluded.sum()} trees in an exclusion zone")

    tree = cKDTree(xy)
    pairs = tree.query_pairs(spacing.max() * (1 - 1e-6), output_type="ndarray")
    distance = np.linalg.norm(xy[pairs[:, 0]] - xy[pairs[:, 1]], axis=1)
    needed = np.maximum(spacing[pairs[:, 0]], spacing[pairs[:, 1]])
    close = distance < needed - 1e-3
    nearest = tree.query(xy, k=2)[0][:, 1].min() if len(xy) > 1 else float("inf")
    check(f"no two trees closer than the larger of their spacings (closest pair {nearest:.3f} m)", not close.any(),
          f"{close.sum()} pairs closer than their spacing, e.g. {distance[close][:3]} < {needed[close][:3]}")

    standing = [(c, p) for d in [area, *zone_documents] for c, p in points(d)]
    if standing:
        too_close = np.zeros(len(xy), dtype=bool)
        standing_xy = frame.project([c[:2] for c, _ in standing])
        for (c, p), s in zip(standing, standing_xy):
            clearance = np.maximum(spacing, p.get("spacing", 0))
            distance = np.linalg.norm(xy - s, axis=1)
            too_close |= distance < clearance - 1e-3
        check(f"every tree clear of the {len(standing)} standing trees", not too_close.any(), f"{too_close.sum()} trees too close to a standing tree")
    if options.count is not None:
        check(f"{options.count} trees, as requested", len(trees) == options.count, f"(got {len(trees)})")
    check.finish()


if __name__ == "__main__":
    main()
