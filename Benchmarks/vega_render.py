"""Times vl-convert-python rendering a Vega-Lite spec to SVG, in-process, and prints the median.

Usage: python3 Benchmarks/vega_render.py [--iterations N] SPEC.vl.json
Prints `RESULT vega_svg_median <milliseconds> ms`. Run by `arvis-bench render-vs-vega`.
Needs vl-convert-python (pip install vl-convert-python).
"""
import argparse
import json
import statistics
import time

import vl_convert


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("spec")
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    with open(args.spec) as handle:
        spec = json.load(handle)
    for _ in range(max(3, args.iterations // 10)):
        vl_convert.vegalite_to_svg(spec)
    samples = []
    for _ in range(args.iterations):
        start = time.perf_counter()
        svg = vl_convert.vegalite_to_svg(spec)
        samples.append(time.perf_counter() - start)
    assert svg.startswith("<svg"), "vl-convert did not return SVG"
    median = statistics.median(samples)
    print(f"vl-convert {vl_convert.__version__}: {args.iterations} iterations, median {median * 1000:.3f} ms")
    print(f"RESULT vega_svg_median {median * 1000:.4f} ms")


if __name__ == "__main__":
    main()
