"""Replays the attacks of issues 25 and 51 against a live `arvis serve` on loopback, each under an RSS
watchdog (VmRSS every 100 ms: under 1 GiB, the server never dies) and a /health prober (a fresh
connection every 50 ms: within 200 ms) that are checked for every attack.

  1. Instancing bomb. A 15 KB GLB whose one mesh has an index accessor of 6 000 000 entries and no
     data, drawn by 300 nodes: uploaded (201, or a 4xx refusal), it must end `failed` without the
     server growing; after a restart it stays `failed` (never queued again). A 20-node version
     ends `failed` too, and three concurrent anonymous `scene.usdz` of a public spec placing it
     answer within 10 s with under 64 MB (or a 4xx).
  2. Page cache poisoning. Projects of different owners with the same display name save the same
     bytes at the same version, in several orders (and an attacker copies a victim's version):
     every hub page names only its own project and spec (`data-live`), and QR codes differ.
  3. Revocation. A removed editor's room and spec WebSockets, a removed viewer's event stream, a
     signed-out user's WebSocket, an anonymous WebSocket of a project turned private, and one of a
     trashed project: each is closed within 1 s with code 4003 (SSE: `event: close`, code 4003);
     a `plant` sent after the removal is not stored, a version saved after it is not received.
  4. Slow clients. 400 anonymous WebSockets that never read (4 KB receive buffers), then three
     saves of a 4.8 MB spec: RSS under 1 GiB, and back within 20 % of the warmed-up baseline (eight
     4.8 MB saves read by one client, which fill the server's version caches to their byte bounds as
     the attack's saves do, then a small version) within 20 s of the sockets closing and a small
     version being saved again.
  5. Blocking work. 40 concurrent sign-ups at bcrypt cost 12 (/health stays fast; past 20 per
     address they get 429 with Retry-After); `widgets/1.png?scale=3.99` is refused (422
     invalidScale) while 1, 2 and 3 draw; 12 concurrent uncached renders answer 200 or 429 with
     Retry-After.
  6. Plan bomb. A hex plan at 0.36 m over 1.24 km² (about 11 million trees) is refused with a 422
     that names the estimated count and the limit, within 2 s.
  7. Accounts. Sign-in time does not tell unknown users from wrong passwords (medians within a
     factor of 2, at bcrypt cost 10); wrong guesses from one address do not lock the real user out
     of another address; wrong current passwords on password change and account deletion end in
     429 within 6 tries.
  8. Tokens and connections. An asset page opened with `?access_token=` carries no token (its model
     link downloads without one); 100 half-sent requests and 100 silent connections are closed
     (`--idle-timeout 5`: within 10 s); a 200 KB header gets 431 and a close, a 100 KB URL 414.
  9. Quotas (`--quota-anchors 5 --quota-versions 5 --quota-rows 100`): the 6th anchor (each from a
     new session), the 6th spec version and the 101st dataset row of a project get 403
     `quotaExceeded`.
 10. The second attack (issue 51). (a) A 50 KB GLB naming one 4096² PNG from 200 images of 100
     materials is processed under the watchdog. (b) Six members of one account send 200 signals of
     32 KB each to a member that never reads: it is closed with 4000; 2 000 signals at once close
     their sender with 1008. (c) Eight anonymous WebSockets resume a public spec from version 1 of
     33 versions of 1 MB and never read. (d) Five chunked uploads past the asset quota get 403 and
     leave no file. (e) A private project's asset links carry a grant and no token; an upload with
     `?access_token=` is refused. (f) Odd methods mint no metrics series; /health/ready names no
     path. (g) A 64 KB row is refused, rows stop at their byte quota, an anonymous read of 100 000
     rows answers at most 4 MB. (h) Trees stop at their quota and are listed in pages.

Each scenario starts its own server (`arvis serve --data TMP --port P --host 127.0.0.1
--password-cost 4` plus its flags) in a temporary folder removed at the end. A server that
passes --kill-mb (1536 by default) is killed by the watchdog, to protect the machine, and reported.
ARVIS_ABUSE_OLD=1 drops the flags servers before issue 25 do not know (to try the attacks on them).

With --database postgres://…, scenario 3 also checks (f) that a change made through one instance
closes a stream held by another instance of the same database.

Usage: python3 Scripts/check_abuse.py .build/release/arvis [--only N ...] [--slack F] [--database URL]
Prints `ok   name` or `FAIL name detail` per check and ends with `N passed, N failed`.
"""
import argparse
import atexit
import base64
import contextlib
import html
import http.client
import json
import os
import re
import resource
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks, call, free_port  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Examples")
PASSWORD = "a long enough password"
RSS_LIMIT_MB = 1024
HEALTH_LIMIT_MS = 200
# Flags issue 25 adds: ARVIS_ABUSE_OLD=1 leaves them out (with their values).
NEW_FLAGS = {"--password-cost", "--idle-timeout", "--quota-anchors", "--quota-asset-bytes", "--quota-rows", "--quota-versions",
             "--quota-row-bytes", "--quota-trees"}
SERVERS = []


class StartFailed(Exception):
    """The server exited, or did not answer /health, after it was started."""


# MARK: HTTP

class Reply:
    """A response: status, headers (case-insensitive), body bytes."""

    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return {}

    def error_code(self):
        error = self.json().get("error") if isinstance(self.json(), dict) else None
        return error.get("code") if isinstance(error, dict) else None

    def __repr__(self):
        return f"({self.status}: {' '.join(self.body[:300].decode('utf-8', 'replace').split())[:200]})"


def request(server, method, path, body=None, token=None, headers=None, timeout=60, source=None, limit=None,
            content_type="application/json"):
    """One request over a fresh connection (from `source`, an address of 127/8, if given); a body of
    more than `limit` bytes is cut there. Never raises for an HTTP status."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout,
                                            source_address=(source, 0) if source else None)
    all_headers = {}
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
    if body is not None:
        all_headers["Content-Type"] = content_type
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    all_headers.update(headers or {})
    try:
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read() if limit is None else read_at_most(response, limit)
        return Reply(response.status, response.headers, data)
    finally:
        connection.close()


def read_at_most(response, limit):
    """At most `limit` + 1 bytes of a body, so a huge one is noticed without being held."""
    parts, size = [], 0
    while size <= limit:
        chunk = response.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def account(server, name, source=None):
    """Signs `name` up and in; its token."""
    request(server, "POST", "/api/v1/accounts", {"username": name, "password": PASSWORD}, source=source)
    reply = request(server, "POST", "/api/v1/sessions", {"username": name, "password": PASSWORD}, source=source)
    assert reply.status == 201, f"signing {name} in: {reply}"
    return reply.json()["token"]


def project(server, token, name, visibility, slug=None):
    body = {"name": name, "visibility": visibility}
    if slug:
        body["slug"] = slug
    return call(server.base, "POST", "/api/v1/projects", body, token)["slug"]


def save(server, token, slug, name, spec):
    """Saves a spec (a dict, or bytes as they are); the reply."""
    return request(server, "PUT", f"/api/v1/projects/{slug}/specs/{name}", spec, token)


def add_member(server, token, slug, username, role):
    call(server.base, "PUT", f"/api/v1/projects/{slug}/members/{username}", {"role": role}, token)


def example(name):
    with open(os.path.join(EXAMPLES, name), "rb") as file:
        return file.read()


# MARK: The server, its watchdog and its prober

class Window:
    """What the watchdog and prober saw during one attack."""

    def __init__(self, name):
        self.name = name
        self.started = time.monotonic()
        self.peak_kb = 0
        self.max_ms = 0.0
        self.probes = 0
        self.failures = []


class Server:
    """`arvis serve` in a child process, watched: VmRSS every 100 ms (killed past the kill limit)
    and GET /health every 50 ms, both recorded for the attack under way."""

    def __init__(self, context, flags):
        self.context = context
        self.flags = list(flags)
        self.data = tempfile.mkdtemp(prefix="data-", dir=context.root)
        self.port = free_port()
        self.process = None
        self.ready = False
        self.window = None
        self.deaths = []
        self.reported = set()
        self.closed = threading.Event()
        SERVERS.append(self)
        for target in (self.watch, self.probe):
            threading.Thread(target=target, daemon=True).start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def command(self):
        flags = {"--password-cost": "4"}
        pairs = [(self.flags[i], self.flags[i + 1]) for i in range(0, len(self.flags), 2)]
        flags.update(pairs)
        arguments = [self.context.binary, "serve", "--data", self.data, "--port", str(self.port), "--host", "127.0.0.1"]
        for flag, value in flags.items():
            if not (self.context.old and flag in NEW_FLAGS):
                arguments += [flag, value]
        return arguments

    def start(self):
        log_path = os.path.join(self.data, "serve.log")
        with open(log_path, "ab") as log:
            offset = log.tell()
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.reported.add(self.process)
                raise StartFailed(f"arvis serve exited with {self.process.returncode} before answering:\n{self.log(offset)}"
                                  + ("\n(ARVIS_ABUSE_OLD=1 leaves out the flags of issue 25)" if "nknown option" in self.log(offset) else ""))
            try:
                if request(self, "GET", "/health", timeout=2).status == 200:
                    self.ready = True
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise StartFailed(f"arvis serve did not answer /health within 90 s:\n{self.log(offset)}")

    def log(self, offset=0):
        with open(os.path.join(self.data, "serve.log"), "rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", "replace")[-3000:]

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s."""
        self.ready = False
        process = self.process
        if process is None or process.poll() is not None:
            return
        self.reported.add(process)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            print("     (arvis serve did not stop within 10 s of SIGTERM; killed)")
            process.kill()
            process.wait()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def ensure_up(self):
        """Starts the server again (same data) if it died."""
        if not self.alive():
            print(f"     (starting arvis serve again on the same data after: {self.deaths[-1][1] if self.deaths else 'an exit'})")
            self.start()

    def close(self):
        self.stop()
        self.closed.set()

    def rss_kb(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except (OSError, AttributeError, ValueError):
            return None
        return None

    def settled_rss_mb(self, seconds=1.0):
        """The median of VmRSS over `seconds`, in MB."""
        samples = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rss = self.rss_kb()
            if rss:
                samples.append(rss)
            time.sleep(0.1)
        return statistics.median(samples) / 1024 if samples else 0

    def watch(self):
        """The RSS watchdog: the peak of each attack, deaths noticed, and a kill past the kill limit."""
        while not self.closed.is_set():
            process = self.process
            if process is not None and process not in self.reported:
                code = process.poll()
                if code is not None:
                    self.reported.add(process)
                    self.ready = False
                    self.deaths.append((time.monotonic(), describe_exit(code)))
                else:
                    rss = self.rss_kb() or 0
                    window = self.window
                    if window and rss > window.peak_kb:
                        window.peak_kb = rss
                    if rss > self.context.kill_mb * 1024:
                        self.reported.add(process)
                        self.ready = False
                        process.kill()
                        process.wait()
                        self.deaths.append((time.monotonic(), f"killed by this script's watchdog at {rss // 1024} MB (--kill-mb {self.context.kill_mb})"))
            time.sleep(0.1)

    def probe(self):
        """The /health prober: a fresh connection every 50 ms, 2 s timeout."""
        while not self.closed.is_set():
            tick = time.monotonic()
            window = self.window
            if window is not None and self.ready and self.alive():
                self.probe_once(window)
            time.sleep(max(0.0, 0.05 - (time.monotonic() - tick)))

    def probe_once(self, window):
        started = time.monotonic()
        try:
            reply = request(self, "GET", "/health", timeout=2)
            problem = None if reply.status == 200 else f"status {reply.status}"
        except OSError as error:
            problem = f"{type(error).__name__}: {error}"
        elapsed = (time.monotonic() - started) * 1000
        if problem and not (self.ready and self.alive()):
            return
        window.probes += 1
        window.max_ms = max(window.max_ms, elapsed)
        if problem:
            window.failures.append(problem)

    @contextlib.contextmanager
    def attack(self, name):
        """Watches an attack; then checks the peak RSS, the slowest /health and that the server lived."""
        window = Window(name)
        window.peak_kb = self.rss_kb() or 0
        self.window = window
        try:
            yield window
        finally:
            window.peak_kb = max(window.peak_kb, (self.rss_kb() or 0) if self.alive() else 0)
            if window.probes == 0 and self.ready and self.alive():
                self.probe_once(window)
            self.window = None
            self.report(window)

    def report(self, window):
        checks, limit = self.context.checks, HEALTH_LIMIT_MS * self.context.slack
        peak = window.peak_kb / 1024
        checks(f"{window.name}: peak RSS under {RSS_LIMIT_MB} MB ({peak:.0f} MB)", peak < RSS_LIMIT_MB)
        failures = f"; {len(window.failures)} probes failed: {window.failures[:3]}" if window.failures else ""
        checks(f"{window.name}: /health within {limit:.0f} ms (max {window.max_ms:.0f} ms over {window.probes} probes)",
               window.probes > 0 and window.max_ms <= limit and not window.failures, f"(max {window.max_ms:.0f} ms{failures})")
        deaths = [text for when, text in self.deaths if when >= window.started]
        if self.process is not None and self.process.poll() is not None and self.process not in self.reported:
            deaths.append(describe_exit(self.process.returncode))
        checks(f"{window.name}: the server stayed up", not deaths, "; ".join(deaths))


def describe_exit(code):
    if code < 0:
        return f"arvis serve died of signal {signal.Signals(-code).name}"
    return f"arvis serve exited with {code}"


class Context:
    """What every scenario gets: the binary, the checks, the options and a way to start servers."""

    def __init__(self, args, checks, root):
        self.binary = os.path.abspath(args.binary)
        self.checks = checks
        self.root = root
        self.slack = args.slack
        self.kill_mb = args.kill_mb
        self.old = os.environ.get("ARVIS_ABUSE_OLD") == "1"
        self.database = args.database

    @contextlib.contextmanager
    def serve(self, *flags):
        server = Server(self, flags)
        try:
            yield server.start()
        finally:
            server.close()
            shutil.rmtree(server.data, ignore_errors=True)


def cleanup(root):
    for server in SERVERS:
        try:
            server.close()
        except Exception:  # noqa: BLE001 - the exit must go on
            if server.process:
                server.process.kill()
    shutil.rmtree(root, ignore_errors=True)


# MARK: 1. Instancing bomb

def glb(document, binary=b""):
    """A GLB file of a JSON document and a binary chunk."""
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + (struct.pack("<II", len(binary), 0x004E4942) + binary if binary else b"")
    return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks


def triangle_document():
    """A glTF document (and its buffer) of one triangle."""
    positions = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    document = {"asset": {"version": "2.0"}, "buffers": [{"byteLength": len(positions)}],
                "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(positions)}],
                "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}],
                "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
                "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}
    return document, positions


def triangle_glb():
    return glb(*triangle_document())


def bomb_glb(nodes, indices=6_000_000):
    """One mesh whose indices are `indices` UNSIGNED_INTs without a bufferView (all zeros), drawn by `nodes` nodes."""
    document, positions = triangle_document()
    document["accessors"].append({"componentType": 5125, "count": indices, "type": "SCALAR"})
    document["meshes"][0]["primitives"][0]["indices"] = 1
    document["nodes"] = [{"mesh": 0, "translation": [round(n % 20 * 1.5, 2), 0, round(n // 20 * 1.5, 2)]} for n in range(nodes)]
    document["scenes"] = [{"nodes": list(range(nodes))}]
    return glb(document, positions)


def upload(server, token, slug, name, data):
    return request(server, "POST", f"/api/v1/projects/{slug}/assets?name={urllib.parse.quote(name)}", data, token,
                   content_type="model/gltf-binary")


def settle(server, token, slug, asset, seconds=60):
    """Polls an asset until it is no longer `processing`: its last state, or None once the server is gone."""
    deadline, last = time.monotonic() + seconds, None
    while time.monotonic() < deadline:
        if not server.alive():
            return last
        try:
            reply = request(server, "GET", f"/api/v1/projects/{slug}/assets/{asset}", token=token, timeout=10)
            if reply.status == 200:
                last = reply.json()
                if last.get("status") != "processing":
                    return last
        except OSError:
            pass
        time.sleep(0.5)
    return last


def upload_bomb(context, server, token, slug, nodes, label):
    """Uploads a bomb of `nodes` nodes and waits for its processing; the asset id (None if refused)."""
    checks = context.checks
    data = bomb_glb(nodes)
    with server.attack(f"{label} {nodes}-node bomb ({len(data) // 1024} KB) uploaded and processed"):
        reply = upload(server, token, slug, f"bomb{nodes}", data)
        refused = 400 <= reply.status < 500
        checks(f"{label} the {nodes}-node bomb is stored (201) or refused (4xx): {reply.status}", reply.status == 201 or refused, repr(reply))
        if reply.status != 201:
            return None
        asset = reply.json()["id"]
        state = settle(server, token, slug, asset)
    status, failure = (state or {}).get("status"), (state or {}).get("failure", "")
    checks(f"{label} the {nodes}-node bomb ends failed within 60 s: {status}" + (f" ({failure[:90]}…)" if failure else ""), status == "failed",
           f"(status {status}; {(state or {}).get('failure', '')[:200]}; server {'up' if server.alive() else 'down'})")
    return asset


def asset_status(server, token, slug, asset):
    try:
        reply = request(server, "GET", f"/api/v1/projects/{slug}/assets/{asset}", token=token, timeout=10)
        return reply.json().get("status") if reply.status == 200 else f"HTTP {reply.status}"
    except OSError as error:
        return f"no answer ({error})"


def restart_after_bomb(context, server, token, slug, asset):
    """SIGTERM, start again on the same data: the bomb stays failed and nothing grows for 10 s."""
    checks = context.checks
    server.stop()
    try:
        server.start()
    except StartFailed as error:
        checks("1b the server starts again on the same data", False, str(error))
        return
    with server.attack("1b restart on the same data"):
        before = asset_status(server, token, slug, asset) if asset else None
        time.sleep(10)
        after = asset_status(server, token, slug, asset) if asset else None
    if asset:
        checks(f"1b after a restart the bomb is still failed (not queued again): {before}, 10 s later {after}",
               before == "failed" and after == "failed", f"({before} then {after})")


def usdz_requests(context, server, slug, spec):
    """Three concurrent anonymous scene.usdz: each within 10 s, 200 under 64 MB or a 4xx."""
    limit, cap = 10 * context.slack, 64 << 20
    results = [None] * 3

    def fetch(index):
        started = time.monotonic()
        try:
            reply = request(server, "GET", f"/s/{slug}/{spec}/scene.usdz", timeout=limit + 5, limit=cap)
            results[index] = (reply.status, len(reply.body), time.monotonic() - started, None)
        except OSError as error:
            results[index] = (None, 0, time.monotonic() - started, f"{type(error).__name__}: {error}")

    with server.attack("1d three concurrent anonymous scene.usdz of the 20-node bomb"):
        threads = [threading.Thread(target=fetch, args=(n,)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for index, (status, size, seconds, error) in enumerate(results):
        good = status is not None and seconds <= limit and (status == 200 and size < cap or 400 <= status < 500)
        context.checks(f"1d scene.usdz request {index + 1}: {status}, {size / 1e6:.1f} MB in {seconds:.1f} s (200 < 64 MB or 4xx, within {limit:.0f} s)",
               good, error or "")


def instancing_bomb(context):
    with context.serve() as server:
        token = account(server, "bomber")
        slug = project(server, token, "Bombs", "public", "bombs")
        asset = upload_bomb(context, server, token, slug, 300, "1a")
        restart_after_bomb(context, server, token, slug, asset)
        if not server.alive() or (asset and asset_status(server, token, slug, asset) == "processing"):
            # The data crash-loops: the rest runs on a fresh folder so it can be judged.
            print("     (the rest of scenario 1 runs on fresh data: the first crash-loops)")
            server.stop()
            server.data = tempfile.mkdtemp(prefix="data-", dir=context.root)
            server.start()
            token = account(server, "bomber")
            slug = project(server, token, "Bombs", "public", "bombs")
        small = upload_bomb(context, server, token, slug, 20, "1c")
        if small is None:
            return
        server.ensure_up()
        spec = {"imageTrackingConfigurations": [{"imageURL": "https://example.org/poster.jpg", "relationships": []}],
                "placements": [{"model": f"/api/v1/projects/{slug}/assets/{small}/model.glb", "position": [0, 0, 1]}]}
        saved = save(server, token, slug, "scene", spec)
        context.checks(f"1d a public spec placing the 20-node bomb is saved: {saved.status}", saved.status == 201, repr(saved))
        usdz_requests(context, server, slug, "scene")


# MARK: 2. Page cache poisoning

class Pages:
    """Fetches hub pages and checks each names only its own project and spec."""

    def __init__(self, context, server):
        self.context, self.server = context, server
        self.slugs = set()

    def check(self, slug, spec, token=None, label=""):
        reply = request(self.server, "GET", f"/s/{slug}/{spec}", token=token)
        page = reply.body.decode("utf-8", "replace")
        live = re.search(r'data-live="([^"]*)"', page)
        others = sorted(other for other in self.slugs - {slug} if other in page)
        who = "with its owner's token" if token else "anonymously"
        self.context.checks(f"2 /s/{slug}/{spec} {who}{label}: data-live /live/{slug}/{spec}, no other project named",
                            reply.status == 200 and live and live.group(1) == f"/live/{slug}/{spec}" and not others,
                            f"(status {reply.status}, data-live {live.group(1) if live else None}, names {others})")

    def qr_differs(self, first, second, spec, target, tokens):
        codes = [request(self.server, "GET", f"/s/{slug}/{spec}/qr.svg?target={target}", token=token).body
                 for slug, token in zip((first, second), tokens)]
        self.context.checks(f"2 qr.svg?target={target} of {first} and {second} differ", codes[0] != codes[1] and all(codes))


def page_poisoning(context):
    with context.serve() as server:
        alice, bob = account(server, "alice"), account(server, "bob")
        pages = Pages(context, server)
        pages.slugs = {"museum-a", "museum-b", "gallery-a", "gallery-b", "expo-victim", "expo-attack"}
        spec = example("two-targets-environment.json")
        label = example("museum-artwork-widget.json")
        with server.attack("2 pages of look-alike projects"):
            # Same display name, same bytes, version 1: the private one's page first, then the public one's.
            museum_a = project(server, alice, "Museum", "private", "museum-a")
            museum_b = project(server, bob, "Museum", "public", "museum-b")
            for owner, slug in ((alice, museum_a), (bob, museum_b)):
                assert save(server, owner, slug, "tour", spec).status == 201
            pages.check(museum_a, "tour", alice)
            pages.check(museum_b, "tour", label=" (after museum-a's)")
            pages.qr_differs(museum_a, museum_b, "tour", "page", (alice, None))
            pages.qr_differs(museum_a, museum_b, "tour", "iarvis", (alice, None))
            # The reverse order, fresh projects.
            gallery_a = project(server, alice, "Gallery", "private", "gallery-a")
            gallery_b = project(server, bob, "Gallery", "public", "gallery-b")
            for owner, slug in ((alice, gallery_a), (bob, gallery_b)):
                assert save(server, owner, slug, "tour", label).status == 201
            pages.check(gallery_b, "tour")
            pages.check(gallery_a, "tour", alice, " (after gallery-b's)")
            poisoning_sequence(server, pages, alice, bob, spec, label)


def poisoning_sequence(server, pages, victim, attacker, spec, other):
    """The attacker saves the victim's latest bytes at the same version number, after the victim's
    page was made; then the attacker's page is made first, for a spec of another name."""
    expo_v = project(server, victim, "Expo", "public", "expo-victim")
    expo_x = project(server, attacker, "Expo", "public", "expo-attack")
    assert save(server, victim, expo_v, "tour", {"text": {"content": "first draft"}}).status == 201
    assert save(server, victim, expo_v, "tour", spec).status == 200
    pages.check(expo_v, "tour", label=" (the victim's version 2)")
    assert save(server, attacker, expo_x, "tour", {"text": {"content": "bait"}}).status == 201
    assert save(server, attacker, expo_x, "tour", spec).status == 200
    pages.check(expo_x, "tour", label=" (the attacker's copy at version 2, after the victim's)")
    assert save(server, attacker, expo_x, "lure", other).status == 201
    pages.check(expo_x, "lure", label=" (the attacker's, first)")
    assert save(server, victim, expo_v, "guide", other).status == 201
    pages.check(expo_v, "guide", label=" (same bytes as the attacker's lure)")
    pages.check(expo_v, "tour", label=" (the victim's version 2, again)")
    pages.qr_differs(expo_v, expo_x, "tour", "iarvis", (None, None))
    pages.qr_differs(expo_v, expo_x, "tour", "page", (None, None))


# MARK: 3. Revocation

def websocket(server, path, token=None):
    """A WebSocket client (the `websockets` package), the token offered as `arvis.bearer.<token>`."""
    from websockets.sync.client import connect
    subprotocols = ["arvis"] + ([f"arvis.bearer.{token}"] if token else [])
    options = dict(subprotocols=subprotocols, max_size=None, ping_interval=None, open_timeout=10, close_timeout=2)
    try:
        return connect(f"ws://127.0.0.1:{server.port}{path}", proxy=None, legacy=True, **options)
    except TypeError:  # websockets before 15 takes neither
        return connect(f"ws://127.0.0.1:{server.port}{path}", **options)


class Stream(threading.Thread):
    """Reads a WebSocket until it closes: its messages, and when and how it closed."""

    def __init__(self, socket_):
        super().__init__(daemon=True)
        self.socket = socket_
        self.messages = []
        self.first = threading.Event()
        self.closed_at = None
        self.code = None
        self.reason = ""
        self.start()

    def run(self):
        from websockets.exceptions import ConnectionClosed
        try:
            while True:
                message = self.socket.recv()
                self.messages.append(json.loads(message) if isinstance(message, str) else message)
                self.first.set()
        except ConnectionClosed as closed:
            self.closed_at = time.monotonic()
            if closed.rcvd is not None:
                self.code, self.reason = closed.rcvd.code, closed.rcvd.reason
        except Exception as error:  # noqa: BLE001 - recorded as how it ended
            self.closed_at, self.reason = time.monotonic(), f"{type(error).__name__}: {error}"
        finally:
            self.first.set()

    def wait_closed(self, seconds):
        self.join(seconds)

    def versions(self):
        return [message.get("version") for message in self.messages if isinstance(message, dict) and message.get("type") == "spec"]

    def close(self):
        with contextlib.suppress(Exception):
            self.socket.close()


class EventStream(threading.Thread):
    """Reads a Server-Sent Events stream: its events, and when `event: close` came and what it said."""

    def __init__(self, server, path, token):
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", "Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        self.first = threading.Event()
        self.closed_at = self.ended_at = None
        self.close_data = None
        self.start()

    def run(self):
        event = None
        try:
            for line in iter(self.response.readline, b""):
                line = line.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    self.first.set()
                    if event == "close":
                        self.closed_at = self.closed_at or time.monotonic()
                        self.close_data = json.loads(line[5:])
                elif not line:
                    event = None
        except (OSError, ValueError, http.client.HTTPException):
            pass
        self.ended_at = time.monotonic()
        self.first.set()

    def close(self):
        self.connection.close()


def check_closed(context, label, stream, revoked_at, latencies, seconds=3):
    """The stream closed within 1 s of `revoked_at` (when the revoking request was sent) with code 4003
    and a reason about access."""
    stream.wait_closed(seconds)
    limit = 1.0 * context.slack
    if stream.closed_at is None:
        context.checks(f"3{label} closed within {limit:.1f} s of the revocation", False, f"(still open after {seconds} s)")
        return
    latency = stream.closed_at - revoked_at
    latencies.append(latency)
    context.checks(f"3{label} closed within {limit:.1f} s of the revocation ({latency * 1000:.0f} ms)", latency <= limit)
    context.checks(f"3{label} close code 4003 with a reason about access: {stream.code} {stream.reason[:80]!r}",
                   stream.code == 4003 and "access" in stream.reason.lower())


def opened(stream, what):
    assert stream.first.wait(10) and stream.closed_at is None, f"{what} did not open: {getattr(stream, 'reason', '')}"
    return stream


def removed_editor(context, server, owner, editor, slug, latencies):
    """(a) An editor's room and spec sockets; the owner removes the editor."""
    room = opened(Stream(websocket(server, f"/live/{slug}/rooms/r1", editor["token"])), "the editor's room")
    spec = opened(Stream(websocket(server, f"/live/{slug}/tour", editor["token"])), "the editor's spec stream")
    revoked = time.monotonic()
    reply = request(server, "DELETE", f"/api/v1/projects/{slug}/members/{editor['name']}", token=owner)
    assert reply.status == 204, f"removing the editor: {reply}"
    with contextlib.suppress(Exception):
        room.socket.send(json.dumps({"type": "plant", "species": "Quercus suber", "position": {"x": 3, "z": 4}, "clientId": "after-removal"}))
    check_closed(context, "a the removed editor's room WebSocket", room, revoked, latencies)
    check_closed(context, "a the removed editor's spec WebSocket", spec, revoked, latencies)
    assert save(server, owner, slug, "tour", {"text": {"content": "private version 2"}}).status == 200
    time.sleep(0.5)
    context.checks(f"3a the removed editor's spec stream got no later version (got {spec.versions()})", 2 not in spec.versions())
    trees = call(server.base, "GET", f"/api/v1/projects/{slug}/trees", token=owner)["trees"]
    context.checks(f"3a a plant sent after the removal is not stored ({len(trees)} trees)",
                   not any(tree.get("clientId") == "after-removal" for tree in trees), json.dumps(trees)[:300])
    for stream in (room, spec):
        stream.close()


def removed_viewer(context, server, owner, viewer, slug, latencies):
    """(b) A viewer's event stream; the owner removes the viewer."""
    events = EventStream(server, f"/live/{slug}/tour", viewer["token"])
    assert events.response.status == 200 and events.first.wait(10), f"the viewer's event stream: {events.response.status}"
    revoked = time.monotonic()
    reply = request(server, "DELETE", f"/api/v1/projects/{slug}/members/{viewer['name']}", token=owner)
    assert reply.status == 204, f"removing the viewer: {reply}"
    events.join(3)
    limit = 1.0 * context.slack
    if events.closed_at is None:
        context.checks(f"3b the removed viewer's event stream sends event: close within {limit:.1f} s", False, "(no event: close within 3 s)")
    else:
        latency = events.closed_at - revoked
        latencies.append(latency)
        context.checks(f"3b the removed viewer's event stream sends event: close within {limit:.1f} s ({latency * 1000:.0f} ms)", latency <= limit)
        context.checks(f"3b its close data has code 4003: {events.close_data}", (events.close_data or {}).get("code") == 4003)
    context.checks("3b the event stream ends", events.ended_at is not None)
    events.close()


def signed_out(context, server, user, slug, latencies):
    """(c) A user's spec socket; the user signs out."""
    spec = opened(Stream(websocket(server, f"/live/{slug}/tour", user["token"])), "the user's spec stream")
    revoked = time.monotonic()
    reply = request(server, "DELETE", "/api/v1/sessions/current", token=user["token"])
    assert reply.status == 204, f"signing out: {reply}"
    check_closed(context, "c a signed-out user's spec WebSocket", spec, revoked, latencies)
    spec.close()


def anonymous_after(context, server, owner, visibility, change, label, latencies):
    """(d, e) An anonymous socket on a project of `visibility`; `change` (method, body) is what the owner does to it."""
    slug = project(server, owner, f"Anonymous {label}", visibility)
    assert save(server, owner, slug, "tour", {"text": {"content": "open"}}).status == 201
    spec = opened(Stream(websocket(server, f"/live/{slug}/tour")), f"an anonymous socket on a {visibility} project")
    method, body = change
    revoked = time.monotonic()
    reply = request(server, method, f"/api/v1/projects/{slug}", body, owner)
    assert reply.status in (200, 204), f"{method} {slug}: {reply}"
    what = "turned private" if method == "PATCH" else "trashed"
    article = "an" if visibility[0] in "aeiou" else "a"
    check_closed(context, f"{label} an anonymous WebSocket of {article} {visibility} project {what}", spec, revoked, latencies)
    spec.close()


def across_instances(context, latencies):
    """(f, with --database) An anonymous socket on a second instance of one PostgreSQL database; the
    project is turned private through the first."""
    with context.serve("--database", context.database) as first, context.serve("--database", context.database) as second:
        suffix = time.time_ns()
        owner = account(first, f"owner{suffix}")
        slug = project(first, owner, f"Shared {suffix}", "public")
        assert save(first, owner, slug, "tour", {"text": {"content": "shared"}}).status == 201
        spec = opened(Stream(websocket(second, f"/live/{slug}/tour")), "an anonymous socket on the second instance")
        revoked = time.monotonic()
        reply = request(first, "PATCH", f"/api/v1/projects/{slug}", {"visibility": "private"}, owner)
        assert reply.status == 200, f"PATCH {slug}: {reply}"
        check_closed(context, "f an anonymous WebSocket on another instance of a project turned private", spec, revoked, latencies)
        spec.close()


def revocation(context):
    with context.serve() as server:
        owner = account(server, "owner")
        people = {name: {"name": name, "token": account(server, name)} for name in ("editor", "viewer", "leaver")}
        slug = project(server, owner, "Private", "private", "private-room")
        assert save(server, owner, slug, "tour", {"text": {"content": "private version 1"}}).status == 201
        for name, role in (("editor", "editor"), ("viewer", "viewer"), ("leaver", "viewer")):
            add_member(server, owner, slug, name, role)
        latencies = []
        with server.attack("3 revocation of open streams"):
            removed_editor(context, server, owner, people["editor"], slug, latencies)
            removed_viewer(context, server, owner, people["viewer"], slug, latencies)
            signed_out(context, server, people["leaver"], slug, latencies)
            anonymous_after(context, server, owner, "unlisted", ("PATCH", {"visibility": "private"}), "d", latencies)
            anonymous_after(context, server, owner, "public", ("DELETE", None), "e", latencies)
        if context.database:
            across_instances(context, latencies)
        if latencies:
            print(f"     (slowest close after a revocation: {max(latencies) * 1000:.0f} ms over {len(latencies)} streams)")


# MARK: 4. Slow clients

def big_spec(marker, size=4_800_000):
    """A component of about `size` bytes: a vStack of texts of 1 000 characters."""
    line = ("The quick brown fox jumps over the lazy dog near the old museum. " * 16)[:1000]
    element = json.dumps({"text": {"content": line}})
    count = (size - 100) // (len(element) + 2)
    elements = [json.dumps({"text": {"content": f"{marker}: " + line}})] + [element] * (count - 1)
    return ('{"vStack": {"elements": [' + ", ".join(elements) + "]}}").encode()


def slow_websocket(port, path, token=None):
    """A WebSocket upgraded by hand on a socket with a 4 KB receive buffer, never read after the
    handshake; `token` is offered as the `arvis.bearer.` subprotocol."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.settimeout(10)
    connection.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    offered = f"Sec-WebSocket-Protocol: arvis, arvis.bearer.{token}\r\n" if token else ""
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{offered}\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        byte = connection.recv(1)
        if not byte:
            break
        head += byte
    return connection, head.startswith(b"HTTP/1.1 101")


def raise_file_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))


def warm_up(server, token, slug, bodies):
    """Big saves read by one normal client, as many as fill the server's version caches to their
    byte bounds (24 MB of versions, 32 MB of messages), as the attack's saves will: what the caches
    hold by design is in the baseline, and the check sees only what the slow clients held. Then a
    small version the slow clients start from; the settled RSS then, in MB."""
    for body in bodies:
        assert save(server, token, slug, "tour", body).status in (200, 201), "a 4.8 MB spec was refused"
        reader = websocket(server, f"/live/{slug}/tour")
        first = json.loads(reader.recv(timeout=60))
        reader.close()
        assert first.get("type") == "spec", first
    assert save(server, token, slug, "tour", {"text": {"content": "small"}}).status == 200
    time.sleep(2)
    return server.settled_rss_mb()


def slow_clients(context, count=400):
    raise_file_limit(count * 2 + 256)
    with context.serve() as server:
        token = account(server, "broadcaster")
        slug = project(server, token, "Slow", "public", "slow")
        warming = [big_spec(f"warm {n}") for n in range(8)]
        bodies = [big_spec(f"save {n}") for n in range(3)]
        baseline = warm_up(server, token, slug, warming)
        sockets = []
        try:
            with server.attack(f"4 {count} WebSockets that never read, then three 4.8 MB saves") as window:
                for _ in range(count):
                    sockets.append(slow_websocket(server.port, f"/live/{slug}/tour"))
                upgraded = sum(ok for _, ok in sockets)
                context.checks(f"4 {upgraded} of {count} slow WebSockets upgraded", upgraded == count)
                statuses = [status_of(lambda: save(server, token, slug, "tour", body)) for body in bodies]
                context.checks(f"4 three {len(bodies[0]) / 1e6:.1f} MB versions saved: {statuses}", statuses == [200] * 3)
                time.sleep(3)
        finally:
            for connection, _ in sockets:
                connection.close()
        # As at the baseline, the latest version is the small one again.
        status_of(lambda: save(server, token, slug, "tour", {"text": {"content": "small again"}}))
        memory_returns(context, server, baseline, window.peak_kb / 1024)


def status_of(send):
    """The status of a request, or why it got none."""
    try:
        return send().status
    except OSError as error:
        return f"no answer ({type(error).__name__})"


def memory_returns(context, server, baseline, peak):
    """Within 20 s of the slow clients leaving, RSS is back within 20 % of the baseline."""
    deadline, rss = time.monotonic() + 20, None
    while time.monotonic() < deadline and server.alive():
        rss = server.settled_rss_mb(0.5)
        if rss <= baseline * 1.2:
            break
    rss = rss or 0
    context.checks(f"4 RSS back within 20 % of its baseline once the sockets close: baseline {baseline:.0f} MB, "
                   f"peak {peak:.0f} MB, after {rss:.0f} MB", server.alive() and rss <= baseline * 1.2)


# MARK: 5. Blocking work

def concurrently(count, work):
    """Runs work(index) in `count` threads at once; the results by index."""
    results = [None] * count
    barrier = threading.Barrier(count)

    def run(index):
        barrier.wait()
        try:
            results[index] = work(index)
        except OSError as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def sign_ups(context, server):
    """(a) 40 concurrent sign-ups at cost 12 from one address."""
    with server.attack("5a 40 concurrent sign-ups at bcrypt cost 12"):
        replies = concurrently(40, lambda n: request(server, "POST", "/api/v1/accounts",
                                                     {"username": f"crowd{n}", "password": PASSWORD}, timeout=300))
    statuses = [reply.status if isinstance(reply, Reply) else repr(reply) for reply in replies]
    created = statuses.count(201)
    limited = [reply for reply in replies if isinstance(reply, Reply) and reply.status == 429]
    context.checks(f"5a at most 20 sign-ups per address are accepted ({created} × 201, {len(limited)} × 429)",
                   created <= 20 and limited and created + len(limited) == 40, f"statuses {sorted(map(str, statuses))}")
    context.checks("5a every refused sign-up has Retry-After", limited and all(reply.headers.get("Retry-After") for reply in limited))


def widget_spec(index):
    """A component that is some work to draw (about 3 000 × 2 300 pixels at scale 3): a line chart of
    4 000 points over ten paragraphs, different per index."""
    points = 4000
    xs = list(range(points))
    ys = [round(((n * 7919 + index * 104729) % 1000) / 10 + index, 2) for n in range(points)]
    chart = {"chart": {"dataSources": [{"label": "default", "data": {"x": xs, "y": ys}}],
                       "components": [{"type": "LineMark", "config": {"x": {"field": "x"}, "y": {"field": "y"}}}]}}
    texts = [{"text": {"content": f"Row {row} of render {index}: " + "words " * 30}} for row in range(10)]
    return {"vStack": {"elements": [chart] + texts}}


def widget_scales(context, server, token, slug):
    """(b) Only a few scales are drawn."""
    with server.attack("5b widget scales"):
        odd = request(server, "GET", f"/s/{slug}/w0/widgets/1.png?scale=3.99", timeout=120)
        context.checks(f"5b scale=3.99 is refused with 422 invalidScale: {odd.status} {odd.error_code()}",
                       odd.status == 422 and odd.error_code() == "invalidScale")
        for scale in (1, 2, 3):
            reply = request(server, "GET", f"/s/{slug}/w0/widgets/1.png?scale={scale}", timeout=120)
            context.checks(f"5b scale={scale} draws: {reply.status}", reply.status == 200 and reply.body.startswith(b"\x89PNG"))


def concurrent_renders(context, server, slug):
    """(c) 12 concurrent anonymous uncached renders."""
    with server.attack("5c 12 concurrent uncached renders"):
        replies = concurrently(12, lambda n: request(server, "GET", f"/s/{slug}/w{n + 1}/widgets/1.png?scale=3", timeout=300))
    statuses = [reply.status if isinstance(reply, Reply) else repr(reply) for reply in replies]
    good = [isinstance(reply, Reply) and (reply.status == 200 or reply.status == 429 and reply.headers.get("Retry-After")) for reply in replies]
    context.checks(f"5c each render answers 200, or 429 with Retry-After: {statuses}", all(good))
    context.checks("5c at least one render is drawn", 200 in statuses)


def blocking_work(context):
    with context.serve("--password-cost", "12") as server:
        token = account(server, "painter", source="127.0.0.2")
        slug = project(server, token, "Renders", "public", "renders")
        for index in range(13):
            reply = save(server, token, slug, f"w{index}", widget_spec(index))
            assert reply.status == 201, f"widget spec {index}: {reply}"
        sign_ups(context, server)
        widget_scales(context, server, token, slug)
        concurrent_renders(context, server, slug)


# MARK: 6. Plan bomb

def square_area(side_metres, latitude=39.7, longitude=-8.8):
    """A GeoJSON square of `side_metres` near Leiria."""
    import math
    dlat = side_metres / 111_195
    dlon = side_metres / (111_195 * math.cos(math.radians(latitude + dlat / 2)))
    ring = [[longitude, latitude], [longitude + dlon, latitude], [longitude + dlon, latitude + dlat], [longitude, latitude + dlat], [longitude, latitude]]
    return {"type": "Polygon", "coordinates": [[[round(x, 8), round(y, 8)] for x, y in ring]]}


def numbers(text):
    """The numbers in a message, reading 11 050 000, 11,050,000, 11.05 million and 1.1e7 alike."""
    found = []
    pattern = r"(\d{1,3}(?:[ ,\u00a0\u202f\u2009_]\d{3})+|\d+(?:\.\d+)?(?:e\d+)?)(\s*million)?"
    for match in re.finditer(pattern, text, re.IGNORECASE):
        value = float(re.sub(r"[ ,\u00a0\u202f\u2009_]", "", match.group(1)))
        found.append(value * (1e6 if match.group(2) else 1))
    return found


def plan_bomb(context):
    with context.serve() as server:
        token = account(server, "planner")
        slug = project(server, token, "Forest", "private", "forest")
        area = call(server.base, "POST", f"/api/v1/projects/{slug}/areas", {"name": "Big field", "area": square_area(1113.6)}, token)
        square_metres = area["squareMetres"]
        estimate = square_metres / (0.36 ** 2 * 3 ** 0.5 / 2)
        limit = 2 * context.slack
        with server.attack(f"6 a hex plan at 0.36 m over {square_metres / 1e6:.2f} km²"):
            started = time.monotonic()
            try:
                reply = request(server, "POST", f"/api/v1/projects/{slug}/plans", {"area": area["id"], "layout": "hex", "spacing": 0.36},
                                token, timeout=max(30, limit + 5))
            except OSError as error:
                reply = Reply(None, {}, repr(error).encode())
            seconds = time.monotonic() - started
        message = ((reply.json().get("error") or {}) if reply.status else {}).get("message", "")
        context.checks(f"6 the plan is refused with 422 within {limit:.0f} s: {reply.status} in {seconds:.1f} s",
                       reply.status == 422 and seconds <= limit, repr(reply)[:300])
        values = numbers(message)
        near = [value for value in values if 0.7 * estimate <= value <= 1.3 * estimate]
        context.checks(f"6 the refusal names the estimated count (~{estimate / 1e6:.1f} million) and the limit: {message[:160]!r}",
                       near and any(1000 <= value < near[0] for value in values))


# MARK: 7. Accounts

def timed_sign_in(server, username, password, source=None):
    started = time.monotonic()
    reply = request(server, "POST", "/api/v1/sessions", {"username": username, "password": password}, source=source)
    return time.monotonic() - started, reply.status


def sign_in_timing(context, server):
    """(a) Unknown users and wrong passwords take as long."""
    known = [f"known{n}" for n in range(10)]
    for name in known:
        request(server, "POST", "/api/v1/accounts", {"username": name, "password": PASSWORD}, source="127.0.0.3", timeout=120)
    unknown_times, known_times, statuses = [], [], set()
    with server.attack("7a sign-in timing at bcrypt cost 10"):
        for n in range(10):
            seconds, status = timed_sign_in(server, f"nobody{n}", "wrong password!", source="127.0.0.3")
            unknown_times.append(seconds)
            statuses.add(status)
            seconds, status = timed_sign_in(server, known[n], "wrong password!", source="127.0.0.4")
            known_times.append(seconds)
            statuses.add(status)
    unknown, wrong = statistics.median(unknown_times), statistics.median(known_times)
    ratio = unknown / wrong if wrong else float("inf")
    context.checks(f"7a median sign-in: unknown user {unknown * 1000:.0f} ms, wrong password {wrong * 1000:.0f} ms (ratio {ratio:.2f}, 0.5 to 2)",
                   0.5 <= ratio <= 2 and statuses == {401}, f"(statuses {statuses})")


def lockout(context, server):
    """(b) Wrong guesses from 127.0.0.1 do not lock the user out of 127.0.0.2."""
    request(server, "POST", "/api/v1/accounts", {"username": "victim", "password": PASSWORD}, source="127.0.0.2")
    with server.attack("7b guessing a user's password"):
        statuses = [timed_sign_in(server, "victim", f"wrong guess {n}!", source="127.0.0.1")[1] for n in range(8)]
        _, status = timed_sign_in(server, "victim", PASSWORD, source="127.0.0.2")
    context.checks(f"7b 8 wrong guesses from 127.0.0.1 meet 429: {statuses}", 429 in statuses)
    context.checks(f"7b the user still signs in from 127.0.0.2: {status}", status == 201)


def password_checks(context, server):
    """(c) The current-password checks of password change and account deletion are limited."""
    with server.attack("7c guessing the current password"):
        changer = account(server, "changer", source="127.0.0.2")
        changes = [request(server, "PUT", "/api/v1/accounts/current/password",
                           {"currentPassword": f"wrong guess {n}!", "newPassword": "a new long password"}, changer).status for n in range(10)]
        deleter = account(server, "deleter", source="127.0.0.2")
        deletions = [request(server, "DELETE", "/api/v1/accounts/current", {"password": f"wrong guess {n}!"}, deleter).status for n in range(10)]
    context.checks(f"7c wrong current passwords on password change meet 429 within 6 tries: {changes}", 429 in changes[:6])
    context.checks(f"7c wrong passwords on account deletion meet 429 within 6 tries: {deletions}", 429 in deletions[:6])


def accounts(context):
    with context.serve("--password-cost", "10") as server:
        sign_in_timing(context, server)
        lockout(context, server)
        password_checks(context, server)


# MARK: 8. Tokens and connections

def token_in_page(context, server):
    """(a) /a/P/ID?access_token=T carries no T; its model link works without one."""
    token = account(server, "curator")
    slug = project(server, token, "Vault", "private", "vault")
    with server.attack("8a an asset page opened with access_token"):
        reply = upload(server, token, slug, "triangle", triangle_glb())
        assert reply.status == 201, f"uploading a triangle: {reply}"
        asset = settle(server, token, slug, reply.json()["id"])
        context.checks(f"8a a one-triangle GLB is processed: {(asset or {}).get('status')}", (asset or {}).get("status") == "ready")
        page = request(server, "GET", f"/a/{slug}/{reply.json()['id']}?access_token={urllib.parse.quote(token, safe='')}")
        text = page.body.decode("utf-8", "replace")
        leaked = token in text or urllib.parse.quote(token, safe="") in text
        context.checks(f"8a the page ({page.status}) does not carry the session token", page.status == 200 and not leaked)
        model = re.search(r'data-model="([^"]*)"', text)
        link = html.unescape(model.group(1)) if model else None
        download = request(server, "GET", link) if link and link.startswith("/") else None
        context.checks(f"8a the page's model link downloads without Authorization: {download.status if download else None}",
                       download is not None and download.status == 200 and download.body.startswith(b"glTF"), f"(link {link})")


def idle_connections(context, server, seconds=10):
    """(b) 100 half-sent requests and 100 silent connections are closed within `seconds`."""
    with server.attack("8b 200 idle connections"):
        connections = []
        for index in range(200):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if index < 100:
                connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            connections.append(connection)
        started, open_ = time.monotonic(), {connection.fileno(): connection for connection in connections}
        last = None
        while open_ and time.monotonic() - started < seconds:
            readable, _, _ = select.select(list(open_.values()), [], [], 0.2)
            for connection in readable:
                try:
                    data = connection.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    del open_[connection.fileno()]
                    last = time.monotonic() - started
        half = sum(1 for connection in open_.values() if connections.index(connection) < 100)
        for connection in connections:
            connection.close()
    context.checks(f"8b 200 idle connections closed within {seconds} s (last after {last or 0:.1f} s; "
                   f"{half} half-sent and {len(open_) - half} silent still open)", not open_)


def raw_exchange(port, data, seconds=10):
    """Sends `data` on a new connection; the status answered (or None) and whether the server closed it."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=seconds)
    with contextlib.suppress(OSError):
        connection.sendall(data)
    received, closed = b"", False
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            chunk = connection.recv(65536)
            if not chunk:
                closed = True
                break
            received += chunk
    except socket.timeout:
        pass
    except OSError:
        closed = True
    connection.close()
    match = re.match(rb"HTTP/1\.[01] (\d{3})", received)
    return (int(match.group(1)) if match else None), closed


def oversized_requests(context, server):
    """(c) A 200 KB header gets 431 and a close; a 100 KB URL 414."""
    with server.attack("8c a 200 KB header and a 100 KB URL"):
        status, closed = raw_exchange(server.port, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
        context.checks(f"8c a 200 KB header: {status}, {'closed' if closed else 'left open'} (431 and closed)", status == 431 and closed)
        status, closed = raw_exchange(server.port, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", seconds=5)
        context.checks(f"8c a 100 KB URL: {status} (414)", status == 414)


def tokens_and_connections(context):
    raise_file_limit(1024)
    with context.serve("--idle-timeout", "5") as server:
        token_in_page(context, server)
        idle_connections(context, server)
        oversized_requests(context, server)


# MARK: 9. Quotas

def quota_refusal(context, label, reply):
    context.checks(f"9 {label} gets 403 quotaExceeded: {reply.status} {reply.error_code()}", reply.status == 403 and reply.error_code() == "quotaExceeded",
                   repr(reply))


def quotas(context):
    with context.serve("--quota-anchors", "5", "--quota-versions", "5", "--quota-rows", "100") as server:
        token = account(server, "hoarder")
        slug = project(server, token, "Hoard", "private", "hoard")
        pose = {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}
        with server.attack("9 quotas"):
            anchors = [request(server, "POST", f"/api/v1/projects/{slug}/anchors", {"pose": pose, "session": f"s{n}", "lifetimeDays": 365}, token)
                       for n in range(6)]
            context.checks(f"9 5 anchors from 5 sessions are accepted: {[reply.status for reply in anchors[:5]]}", all(r.status == 201 for r in anchors[:5]))
            quota_refusal(context, "the 6th anchor (a 6th session)", anchors[5])
            versions = [save(server, token, slug, name, {"text": {"content": f"{name} {n}"}}) for name, n in
                        (("a", 1), ("a", 2), ("a", 3), ("b", 1), ("b", 2))]
            context.checks(f"9 5 versions of two specs are accepted: {[reply.status for reply in versions]}", all(r.status in (200, 201) for r in versions))
            quota_refusal(context, "the 6th version in the project", save(server, token, slug, "a", {"text": {"content": "a 4"}}))
            appended = [request(server, "POST", f"/api/v1/projects/{slug}/datasets/{name}/rows", [{"n": n} for n in range(rows)], token)
                        for name, rows in (("sensor", 60), ("door", 40))]
            context.checks(f"9 100 rows in two datasets are accepted: {[reply.status for reply in appended]}", all(r.status == 201 for r in appended))
            quota_refusal(context, "the 101st row in the project", request(server, "POST", f"/api/v1/projects/{slug}/datasets/sensor/rows", {"n": 61}, token))


# MARK: 10. The second attack (issue 51)

def grey_png(side):
    """A `side`² 8-bit greyscale PNG of one grey: 16 KB deflated at 4096², 16 M pixels decoded."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = (b"\0" + b"\x80" * side) * side
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def texture_bomb(materials, side=4096):
    """One triangle drawn with `materials` materials, each naming two images (base colour and
    emissive) of one shared greyscale picture: 2·K images, one buffer view."""
    document, binary = triangle_document()
    binary += struct.pack("<6f", 0, 0, 1, 0, 0, 1)
    picture = grey_png(side)
    document["buffers"][0]["byteLength"] = len(binary) + len(picture)
    document["bufferViews"] += [{"buffer": 0, "byteOffset": 36, "byteLength": 24},
                                {"buffer": 0, "byteOffset": len(binary), "byteLength": len(picture)}]
    document["accessors"].append({"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"})
    document["images"] = [{"bufferView": 2, "mimeType": "image/png"} for _ in range(2 * materials)]
    document["textures"] = [{"source": n} for n in range(2 * materials)]
    document["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 2 * n}},
                              "emissiveTexture": {"index": 2 * n + 1}, "emissiveFactor": [1, 1, 1]} for n in range(materials)]
    document["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": n} for n in range(materials)]}]
    return glb(document, binary + picture)


def texture_bombs(context, server, token, slug):
    """(a) A 50 KB GLB naming one 4096² picture from 200 images is processed within the bounds."""
    data = texture_bomb(100)
    with server.attack(f"10a a texture bomb ({len(data) // 1024} KB, 100 materials of one 4096² picture)"):
        reply = upload(server, token, slug, "bomb", data)
        asset = settle(server, token, slug, reply.json().get("id"), seconds=120) if reply.status == 201 else None
        context.checks(f"10a the texture bomb is processed or refused: {reply.status} {(asset or {}).get('status')}",
                       reply.status >= 400 or (asset or {}).get("status") in ("ready", "failed"))


def frames(connection, seconds=20):
    """Reads a hand-made WebSocket until it closes: the close frame's code, or None."""
    connection.settimeout(seconds)
    data = b""
    with contextlib.suppress(OSError):
        while True:
            chunk = connection.recv(1 << 20)
            if not chunk:
                break
            data += chunk
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            length, at = struct.unpack(">H", data[at:at + 2])[0], at + 2
        elif length == 127:
            length, at = struct.unpack(">Q", data[at:at + 8])[0], at + 8
        if opcode == 8 and length >= 2:
            return struct.unpack(">H", data[at:at + 2])[0]
        at += length
    return None


def signal_flood(context, server, token, slug, senders=6, each=200):
    """(b) Members of one account send 32 KB signals to a member that never reads: it is closed
    with 4000 once its queue passes its bound, and a sender past its rate is closed with 1008."""
    slow, upgraded = slow_websocket(server.port, f"/live/{slug}/rooms/main", token)
    context.checks("10b the slow member joins the room", upgraded)
    sdp = "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n" + "a=x:" + "y" * 32_000 + "\r\n"
    codes = []
    target = None
    with server.attack(f"10b {senders} members send {each} signals of 32 KB each to a member that never reads"):
        for _ in range(senders):
            sender = websocket(server, f"/live/{slug}/rooms/main", token)
            welcome = json.loads(sender.recv(timeout=10))
            # The first sender finds the slow member alone in the room.
            target = target or next((member["id"] for member in welcome.get("members", [])), None)
            assert target, f"no member in the welcome: {str(welcome)[:300]}"
            message = json.dumps({"type": "signal", "to": target, "kind": "offer", "sdp": sdp})
            with contextlib.suppress(Exception):
                for _ in range(each):
                    sender.send(message)
            sender.close()
        codes.append(frames(slow))
    slow.close()
    context.checks(f"10b the member that never read was closed with 4000: {codes}", codes == [4000])
    flooder = websocket(server, f"/live/{slug}/rooms/main", token)
    flooder.recv(timeout=10)
    closed = None
    from websockets.exceptions import ConnectionClosed
    try:
        for _ in range(2_000):
            flooder.send(json.dumps({"type": "signal", "to": "0000000000000000", "kind": "bye"}))
        flooder.recv(timeout=10)
        while True:
            flooder.recv(timeout=10)
    except ConnectionClosed as error:
        closed = error.rcvd.code if error.rcvd else None
    except Exception:  # noqa: BLE001 - a timeout: not closed
        closed = None
    context.checks(f"10b 2 000 signals at once close the sender with 1008: {closed}", closed == 1008)


def catch_up(context, server, token, slug, versions=33, readers=8):
    """(c) Clients of a public spec asking for every version from 1 and never reading, and room
    members asking for every event from 0."""
    spec = lambda n: big_spec(f"version {n}", size=1_000_000)  # noqa: E731
    for number in range(1, versions + 1):
        assert save(server, token, slug, "tour", spec(number)).status in (200, 201), "saving a 1 MB version"
    sockets = []
    with server.attack(f"10c {readers} anonymous WebSockets from version 1 of {versions} versions of 1 MB, never read"):
        for _ in range(readers):
            sockets.append(slow_websocket(server.port, f"/live/{slug}/tour?version=1"))
        time.sleep(3)
    for connection, _ in sockets:
        connection.close()
    context.checks(f"10c {sum(ok for _, ok in sockets)} of {readers} catch-up sockets upgraded", all(ok for _, ok in sockets))


def chunked_quota(context):
    """(d) Chunked uploads past the asset quota are refused and leave no file."""
    with context.serve("--quota-asset-bytes", "100000") as server:
        token = account(server, "uploader")
        slug = project(server, token, "Drop", "private", "drop")
        body = triangle_glb() + b"\0" * 300_000
        statuses = []
        with server.attack("10d five chunked uploads of 300 KB past a 100 KB quota"):
            for _ in range(5):
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                try:
                    connection.request("POST", f"/api/v1/projects/{slug}/assets?name=big",
                                       body=iter([body[at:at + 16_384] for at in range(0, len(body), 16_384)]),
                                       headers={"Authorization": f"Bearer {token}", "Content-Type": "model/gltf-binary"},
                                       encode_chunked=True)
                    statuses.append(connection.getresponse().status)
                except OSError as error:
                    statuses.append(type(error).__name__)
                finally:
                    connection.close()
        context.checks(f"10d every chunked upload past the quota gets 403: {statuses}", statuses == [403] * 5)
        left = [name for folder, _, names in os.walk(os.path.join(server.data, "assets")) for name in names]
        context.checks(f"10d no file is left by the refused uploads: {left[:5]}", not left)


def links_and_metrics(context, server, token, slug):
    """(e) A private project's asset links carry a grant, never the token; a write never takes
    the token from the address. (f) Odd request methods mint no metrics series; /health/ready says
    nothing of the store's address."""
    reply = upload(server, token, slug, "triangle", triangle_glb())
    listed = request(server, "GET", f"/api/v1/projects/{slug}/assets", token=token)
    text = listed.body.decode("utf-8", "replace")
    links = [link for asset in listed.json().get("assets", []) for link in asset.get("links", {}).values()]
    context.checks(f"10e {len(links)} asset links carry a grant and no session token",
                   reply.status == 201 and links and all("grant=" in link for link in links) and token not in text)
    write = request(server, "POST", f"/api/v1/projects/{slug}/assets?name=x&access_token={urllib.parse.quote(token, safe='')}",
                    triangle_glb(), content_type="model/gltf-binary")
    context.checks(f"10e an upload with access_token in the address is refused: {write.status}", write.status in (401, 403, 404))

    def series():
        body = request(server, "GET", "/metrics").body.decode("utf-8", "replace")
        return sum(1 for line in body.splitlines() if line.startswith("arvis_http_requests_total"))
    before = series()
    # Methods the HTTP parser takes but the server does not serve, on routes it has.
    methods = ["PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH", "PURGE", "REPORT",
               "MKACTIVITY", "CHECKOUT", "MERGE", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "TRACE", "LINK", "UNLINK", "ACL"]
    for method in methods:
        for path in ("/health", f"/api/v1/projects/{slug}", "/metrics"):
            with contextlib.suppress(OSError):
                request(server, method, path, timeout=5)
    after = series()
    context.checks(f"10f {len(methods)} odd methods on 3 routes add at most 3 series ({before} → {after})", after - before <= 3)
    ready = request(server, "GET", "/health/ready")
    context.checks(f"10f /health/ready answers {ready.status} without the data folder's path",
                   ready.status == 200 and server.data.encode() not in ready.body)


def datasets_and_quotas(context):
    """(g) Rows of 64 columns of 1 000 characters are refused; a project's rows stop at their byte
    quota; an anonymous read of 100 000 rows answers at most 4 MB, with `more`. (h) Trees past their
    quota are refused, and the list comes in pages."""
    with context.serve("--quota-row-bytes", "4500000", "--quota-trees", "3") as server:
        token = account(server, "logger")
        slug = project(server, token, "Feed", "public", "feed")
        path = f"/api/v1/projects/{slug}/datasets/feed/rows"
        with server.attack("10g rows counted in bytes and read in pages"):
            wide = json.dumps({f"c{n}": "x" * 1000 for n in range(64)})
            refused = request(server, "POST", path, wide.encode(), token, content_type="application/x-ndjson")
            context.checks(f"10g a 64 KB row is refused: {refused.status}", refused.status == 422, repr(refused))
            row = json.dumps({f"c{n}": "x" * 1000 for n in range(7)})
            statuses = [request(server, "POST", path, "\n".join([row] * 120).encode(), token,
                                content_type="application/x-ndjson").status for _ in range(6)]
            context.checks(f"10g the rows stop at the project's byte quota: {statuses}", statuses == [201] * 5 + [403])
            reply = request(server, "GET", path + "?last=100000")
            answer = reply.json()
            context.checks(f"10g an anonymous read of 100 000 rows answers {len(reply.body) / 1e6:.1f} MB with more",
                           reply.status == 200 and len(reply.body) <= 4_200_000 and answer.get("more") is True)
        with server.attack("10h trees past their quota, listed in pages"):
            trees = [request(server, "POST", f"/api/v1/projects/{slug}/trees",
                             {"species": "Quercus suber", "position": {"x": n * 20, "z": 0}}, token).status for n in range(4)]
            context.checks(f"10h the 4th tree past a quota of 3 gets 403: {trees}", trees == [201, 201, 201, 403])
            first = request(server, "GET", f"/api/v1/projects/{slug}/trees?limit=2").json()
            rest = request(server, "GET", f"/api/v1/projects/{slug}/trees?limit=2&after={first.get('next')}").json()
            context.checks("10h the trees come in pages of 2 and 1",
                           len(first.get("trees", [])) == 2 and len(rest.get("trees", [])) == 1 and "next" not in rest)


def second_attack(context):
    with context.serve() as server:
        token = account(server, "attacker")
        texture_bombs(context, server, token, project(server, token, "Bombs", "private", "bombs"))
        signal_flood(context, server, token, project(server, token, "Room", "private", "room"))
        catch_up(context, server, token, project(server, token, "Feed", "public", "feed"))
        links_and_metrics(context, server, token, project(server, token, "Vault", "private", "vault"))
    chunked_quota(context)
    datasets_and_quotas(context)


# MARK: Main

SCENARIOS = {1: ("instancing bomb", instancing_bomb), 2: ("page cache poisoning", page_poisoning), 3: ("revocation of open streams", revocation),
             4: ("slow clients", slow_clients), 5: ("blocking work", blocking_work), 6: ("plan bomb", plan_bomb), 7: ("accounts", accounts),
             8: ("tokens and connections", tokens_and_connections), 9: ("quotas", quotas), 10: ("the second attack", second_attack)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--only", type=int, action="append", choices=sorted(SCENARIOS), help="run only scenario N (repeatable)")
    parser.add_argument("--slack", type=float, default=1.0, help="multiplies every latency limit (a debug build is slower)")
    parser.add_argument("--kill-mb", type=int, default=1536, help="the watchdog kills a server past this RSS, to protect the machine")
    parser.add_argument("--database", help="a PostgreSQL URL: revocation is also checked across two instances sharing it")
    args = parser.parse_args()
    checks = Checks()
    root = tempfile.mkdtemp(prefix="arvis-abuse-")
    atexit.register(cleanup, root)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda number, frame: sys.exit(128 + number))
    context = Context(args, checks, root)
    if context.old:
        print("ARVIS_ABUSE_OLD=1: leaving out " + ", ".join(sorted(NEW_FLAGS)))
    for number in sorted(set(args.only or SCENARIOS)):
        title, scenario = SCENARIOS[number]
        print(f"# {number}. {title}")
        started = time.monotonic()
        try:
            scenario(context)
        except StartFailed as error:
            checks(f"{number} the server starts", False, f"\n{error}")
        except Exception as error:  # noqa: BLE001 - one scenario's failure must not hide the others
            checks(f"{number} {title} runs to its end", False, f"{type(error).__name__}: {error}")
            traceback.print_exc(limit=3)
        print(f"     ({title}: {time.monotonic() - started:.0f} s)")
    checks.finish()


if __name__ == "__main__":
    main()
