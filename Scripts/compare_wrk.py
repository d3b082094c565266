#!/usr/bin/env python3
"""Two builds of `arvis serve` side by side under Debian's wrk, taking turns: a public project with
the README's bar chart on each, then `--rounds` rounds of `wrk -t1 -c64 -dSECONDS` against each build's
hub spec GET and cached widget PNG, the order flipped every round (so neither always runs second on a
host whose speed drifts). Prints every run and the medians.

Usage: python3 Scripts/compare_wrk.py BEFORE/arvis AFTER/arvis [--rounds 8] [--seconds 3]
"""
import argparse
import json
import pathlib
import re
import statistics
import subprocess
import tempfile
import time
import urllib.request

from checking import free_port

ROOT = pathlib.Path(__file__).resolve().parent.parent
PATHS = {"hub spec GET": "/s/bench/chart.json", "widget PNG": "/s/bench/chart/widgets/1.png"}


def call(port, method, path, body=None, token=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"null")


def start(binary, folder):
    """A server of `binary` with the bench project; (process, port)."""
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--data", folder, "--port", str(port), "--password-cost", "4"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health")
            break
        except OSError:
            time.sleep(0.05)
    account = json.dumps({"username": "bench", "password": "correct horse battery"}).encode()
    call(port, "POST", "/api/v1/accounts", account)
    token = call(port, "POST", "/api/v1/sessions", account)["token"]
    call(port, "POST", "/api/v1/projects", json.dumps({"name": "Bench", "slug": "bench", "visibility": "public"}).encode(), token)
    call(port, "PUT", "/api/v1/projects/bench/specs/chart", (ROOT / "Examples/laptop-benchmark-bar-chart.json").read_bytes(), token)
    for path in PATHS.values():
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read()
    return process, port


def wrk(port, path, seconds):
    out = subprocess.run(["wrk", "-t1", "-c64", f"-d{seconds}s", f"http://127.0.0.1:{port}{path}"],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=3)
    options = parser.parse_args()
    builds = {"before": options.before, "after": options.after}
    results = {name: {what: [] for what in PATHS} for name in builds}
    with tempfile.TemporaryDirectory() as folder:
        servers = {name: start(binary, tempfile.mkdtemp(dir=folder)) for name, binary in builds.items()}
        try:
            for turn in range(options.rounds):
                for name in (["before", "after"] if turn % 2 == 0 else ["after", "before"]):
                    for what, path in PATHS.items():
                        rate = wrk(servers[name][1], path, options.seconds)
                        results[name][what].append(rate)
                        print(f"round {turn + 1} {name} {what}: {rate:.0f} req/s", flush=True)
        finally:
            for process, _ in servers.values():
                process.terminate()
    for what in PATHS:
        before, after = (statistics.median(results[name][what]) for name in builds)
        print(f"{what}: median before {before:.0f}, after {after:.0f} req/s ({after / before - 1:+.1%})")


if __name__ == "__main__":
    main()
