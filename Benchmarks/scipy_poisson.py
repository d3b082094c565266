#!/usr/bin/env python3
"""The scipy side of `arvis-bench plant-vs-scipy`: fill a square with scipy.stats.qmc.PoissonDisk.

Fills a SIDE x SIDE metre square at spacing R with PoissonDisk(d=2, radius=R/SIDE).fill_space() in the
unit square, scales to metres, checks the spacing with a KD-tree, and prints the median time over the
runs, the point count and the density per r².
"""
import argparse
import statistics
import time

import numpy as np
import scipy
from scipy.spatial import cKDTree
from scipy.stats import qmc


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--side", type=float, default=400.0)
    parser.add_argument("--spacing", type=float, default=3.0)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    options = parser.parse_args()

    times, points = [], None
    for run in range(options.iterations):
        engine = qmc.PoissonDisk(d=2, radius=options.spacing / options.side, seed=options.seed + run)
        start = time.perf_counter()
        points = engine.fill_space() * options.side
        times.append(time.perf_counter() - start)

    nearest = cKDTree(points).query(points, k=2)[0][:, 1].min()
    density = len(points) * options.spacing ** 2 / options.side ** 2
    print(f"scipy {scipy.__version__}, numpy {np.__version__}, PoissonDisk.fill_space: {len(points)} points, closest pair {nearest:.4f} m")
    print(f"RESULT scipy_fill_median {statistics.median(times) * 1000:.1f} ms")
    print(f"RESULT scipy_points {len(points)} points")
    print(f"RESULT scipy_density {density:.4f} per_r2")
    print(f"RESULT scipy_min_distance {nearest:.4f} m")


if __name__ == "__main__":
    main()
