"""The mesh both decoder benchmarks compress (meshopt_decode.py, draco_decode.py): a height field of
about N triangles, x and z the grid's integers, y = 4 sin(x/9) cos(z/7)."""
import numpy as np


def grid(triangles):
    """Positions (float32, x y z per vertex) and triangles (uint32, three per triangle, flat)."""
    side = max(2, int(round((triangles / 2) ** 0.5)))
    y, x = np.mgrid[0 : side + 1, 0 : side + 1]
    heights = np.sin(x / 9.0) * np.cos(y / 7.0) * 4
    positions = np.stack([x.ravel(), heights.ravel(), y.ravel()], axis=1).astype(np.float32)
    a = (np.arange(side)[None, :] + np.arange(side)[:, None] * (side + 1)).ravel()
    faces = np.stack([a, a + 1, a + side + 1, a + 1, a + side + 2, a + side + 1], axis=1).reshape(-1)
    return positions, faces.astype(np.uint32)


def normals(positions):
    """The height field's unit normals at `positions` (float64)."""
    x, z = positions[:, 0].astype(np.float64), positions[:, 2].astype(np.float64)
    slope_x = 4 / 9 * np.cos(x / 9) * np.cos(z / 7)
    slope_z = -4 / 7 * np.sin(x / 9) * np.sin(z / 7)
    n = np.stack([-slope_x, np.ones_like(x), -slope_z], axis=1)
    return n / np.linalg.norm(n, axis=1, keepdims=True)
