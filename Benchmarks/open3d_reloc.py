"""Times Open3D's correspondence-based RANSAC registration on a problem written by
`arvis-bench reloc-vs-open3d`, and reports its accuracy against the known transform.

Usage: python3 Benchmarks/open3d_reloc.py [--iterations N] PROBLEM.json
PROBLEM.json: {"saved": [[x, y, z], ...], "observed": [[x, y, z], ...], "threshold": metres,
               "rotation": 3×3 rows, "translation": [x, y, z]}
Prints RESULT lines: open3d_reloc_median (ms), open3d_rotation_error (deg), open3d_translation_error (mm).
Needs open3d (pip install open3d; on Debian also apt-get install libusb-1.0-0).
"""
import argparse
import json
import math
import statistics
import time

import numpy as np
import open3d as o3d


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("problem")
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    with open(args.problem) as handle:
        problem = json.load(handle)
    saved = np.asarray(problem["saved"], dtype=np.float64)
    observed = np.asarray(problem["observed"], dtype=np.float64)
    source = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(saved))
    target = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(observed))
    indices = np.arange(len(saved), dtype=np.int32)
    correspondences = o3d.utility.Vector2iVector(np.stack([indices, indices], axis=1))
    registration = o3d.pipelines.registration

    def run():
        return registration.registration_ransac_based_on_correspondence(
            source, target, correspondences, problem["threshold"],
            registration.TransformationEstimationPointToPoint(False), 3, [],
            registration.RANSACConvergenceCriteria(100000, 0.999))

    run()
    samples, result = [], None
    for _ in range(args.iterations):
        start = time.perf_counter()
        result = run()
        samples.append(time.perf_counter() - start)
    estimate = np.asarray(result.transformation)
    truth_rotation = np.asarray(problem["rotation"])
    relative = estimate[:3, :3] @ truth_rotation.T
    angle = math.degrees(math.acos(max(-1.0, min(1.0, (np.trace(relative) - 1) / 2))))
    translation_error = float(np.linalg.norm(estimate[:3, 3] - np.asarray(problem["translation"])))
    print(f"open3d {o3d.__version__}: median {statistics.median(samples) * 1000:.3f} ms, fitness {result.fitness:.3f}, "
          f"inlier RMSE {result.inlier_rmse:.4f} m")
    print(f"RESULT open3d_reloc_median {statistics.median(samples) * 1000:.3f} ms")
    print(f"RESULT open3d_rotation_error {angle:.5f} deg")
    print(f"RESULT open3d_translation_error {translation_error * 1000:.3f} mm")


if __name__ == "__main__":
    main()
