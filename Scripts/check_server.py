"""Live checks of `arvis serve` on a loopback port, driven from outside the process.

  durability BINARY [--database URL]
      Clients save spec versions and plant trees concurrently; the server is killed with SIGKILL
      mid-write and restarted. Every write it acknowledged must be there, unchanged, and the
      SQLite database must pass PRAGMA integrity_check.
  contract BINARY [--database URL] [--seed N] [--max-time S]
      schemathesis (pinned seed) against the served /openapi.yaml, signed in, over a public
      project with a spec: no 5xx, every status, header and body as the document says, 405 with
      Allow for wrong methods.
  limits BINARY
      Failed sign-ins from one address across many accounts end in 429 (the per-address limit).
  remote BINARY
      arvis login, push and pull against the server: specs round-trip byte for byte, an invalid
      spec is refused with located diagnostics (exit 1), a stale --if-match is refused (exit 1).
  live BINARY [--database URL]
      Live streams across instances: with --database, two `arvis serve` on one PostgreSQL (else
      one on SQLite). Writes go through the first; on the second, `arvis watch` (WebSocket), a
      Server-Sent Events reader and a room member must each see every spec version, tree and
      annotation deletion, within a second. Then the second instance is killed and restarted:
      the watcher reconnects and resumes with the version it missed. An open event stream does not
      hold SIGTERM: the server closes it and stops.

Usage: python3 Scripts/check_server.py durability .build/release/arvis
"""
import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import free_port  # noqa: E402

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Examples", "two-targets-environment.json")


class Server:
    """`arvis serve` in a child process on a free loopback port."""

    def __init__(self, binary, data, database=None, port=None):
        self.binary, self.data, self.database = binary, data, database
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        command = [self.binary, "serve", "--data", self.data, "--port", str(self.port)]
        if self.database:
            command += ["--database", self.database]
        self.log = open(os.path.join(self.data, f"serve-{time.time_ns()}.log"), "w") if os.path.isdir(self.data) else subprocess.DEVNULL
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if request(self, "GET", "/health")[0] == 200:
                    return self
            except OSError:
                pass
            if self.process.poll() is not None:
                sys.exit(f"arvis serve exited with {self.process.returncode} before answering")
            time.sleep(0.1)
        sys.exit("arvis serve did not answer /health within 60 s")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        """SIGTERM, and a graceful exit (status 0) within 10 s."""
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            sys.exit("arvis serve did not stop within 10 s of SIGTERM")
        if code != 0:
            sys.exit(f"arvis serve exited with {code} on SIGTERM, not 0")


def request(server, method, path, body=None, token=None, headers=None, timeout=10):
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    all_headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    all_headers.update(headers or {})
    req = urllib.request.Request(server.base + path, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def account(server, name):
    credentials = {"username": name, "password": "a long enough password"}
    request(server, "POST", "/api/v1/accounts", credentials)
    status, body, _ = request(server, "POST", "/api/v1/sessions", credentials)
    assert status == 201, (status, body)
    return json.loads(body)["token"]


def durability(args):
    data = tempfile.mkdtemp(prefix="arvis-durability-")
    server = Server(args.binary, data, args.database).start()
    token = account(server, "writer")
    status, body, _ = request(server, "POST", "/api/v1/projects", {"name": f"Durable {time.time_ns()}", "visibility": "private"}, token)
    assert status == 201, body
    slug = json.loads(body)["slug"]
    acknowledged_specs, acknowledged_trees, lock = [], [], threading.Lock()
    stop = threading.Event()

    def write_specs(worker):
        etag, index = None, 0
        while not stop.is_set():
            content = json.dumps({"text": {"content": f"worker {worker} save {index}"}}).encode()
            try:
                status, body, headers = request(server, "PUT", f"/api/v1/projects/{slug}/specs/w{worker}", content, token,
                                                {"If-Match": etag} if etag else {})
            except OSError:
                return
            if status in (200, 201):
                etag = headers.get("ETag")
                with lock:
                    acknowledged_specs.append((f"w{worker}", json.loads(body)["version"], content))
            index += 1

    def plant(worker):
        index = 0
        while not stop.is_set():
            position = {"x": worker * 1000.0 + index * 20.0, "z": 0.0}
            client_id = f"t{worker}-{index}"
            try:
                status, body, _ = request(server, "POST", f"/api/v1/projects/{slug}/trees",
                                          {"species": "Pinus pinea", "position": position, "clientId": client_id}, token)
            except OSError:
                return
            if status in (200, 201):
                with lock:
                    acknowledged_trees.append(json.loads(body)["id"])
            index += 1

    threads = [threading.Thread(target=write_specs, args=(n,)) for n in range(4)] + [threading.Thread(target=plant, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join()

    restarted = Server(args.binary, data, args.database, server.port).start()
    missing = 0
    for name, version, content in acknowledged_specs:
        status, body, _ = request(restarted, "GET", f"/api/v1/projects/{slug}/specs/{name}/versions/{version}", token=token)
        if status != 200 or body != content:
            missing += 1
            print(f"lost: spec {name} version {version} ({status})")
    status, body, _ = request(restarted, "GET", f"/api/v1/projects/{slug}/trees", token=token)
    stored = {tree["id"] for tree in json.loads(body)["trees"]}
    lost_trees = [tree for tree in acknowledged_trees if tree not in stored]
    for tree in lost_trees:
        print(f"lost: tree {tree}")
    restarted.stop()
    if not args.database:
        result = sqlite3.connect(os.path.join(data, "arvis.sqlite")).execute("PRAGMA integrity_check").fetchone()[0]
        if result != "ok":
            sys.exit(f"integrity_check: {result}")
    print(f"durability: {len(acknowledged_specs)} spec versions and {len(acknowledged_trees)} trees acknowledged before SIGKILL, "
          f"{missing + len(lost_trees)} lost" + ("" if args.database else ", integrity_check ok"))
    if missing or lost_trees or not acknowledged_specs or not acknowledged_trees:
        sys.exit(1)


def contract(args):
    data = tempfile.mkdtemp(prefix="arvis-contract-")
    server = Server(args.binary, data, args.database).start()
    token = account(server, "fuzzer")
    status, _, _ = request(server, "POST", "/api/v1/projects", {"name": "Fuzz", "slug": "fuzz", "visibility": "public"}, token)
    assert status == 201
    with open(EXAMPLE, "rb") as example:
        status, _, _ = request(server, "PUT", "/api/v1/projects/fuzz/specs/tour", example.read(), token)
    assert status == 201
    config = os.path.join(data, "schemathesis.toml")
    with open(config, "w") as file:
        file.write('[parameters]\n"path.project" = "fuzz"\n"path.name" = "tour"\n')
    command = ["schemathesis", "--config-file", config, "run", server.base + "/openapi.yaml",
               "--checks", "all", "--exclude-checks", "negative_data_rejection,positive_data_acceptance",
               # These end the session the run signs in with; the Swift suites cover them.
               "--exclude-operation-id", "signOut", "--exclude-operation-id", "deleteAccount", "--exclude-operation-id", "changePassword",
               # An event stream never ends; `live` checks it.
               "--exclude-operation-id", "liveSpec",
               "--seed", str(args.seed), "--max-examples", "25", "--max-time", str(args.max_time), "--workers", "1",
               "-H", f"Authorization: Bearer {token}"]
    result = subprocess.run(command)
    server.stop()
    sys.exit(result.returncode)


def limits(args):
    data = tempfile.mkdtemp(prefix="arvis-limits-")
    server = Server(args.binary, data).start()
    statuses = [request(server, "POST", "/api/v1/sessions", {"username": f"guess{n}", "password": "wrong password!"})[0] for n in range(60)]
    server.stop()
    if 429 not in statuses or statuses[:50] != [401] * 50:
        sys.exit(f"per-address limit: expected 50 × 401 then 429, got {statuses}")
    print(f"limits: 50 failed sign-ins from one address over 50 accounts, then {statuses[50:].count(429)} × 429")


def remote(args):
    data = tempfile.mkdtemp(prefix="arvis-remote-")
    server = Server(args.binary, data, args.database).start()
    environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(data, "config"))
    environment.pop("ARVIS_TOKEN", None)
    password = "a long enough password"
    request(server, "POST", "/api/v1/accounts", {"username": "author", "password": password})

    def arvis(*arguments, stdin=None):
        return subprocess.run([args.binary, *arguments], input=stdin, capture_output=True, env=environment)

    login = arvis("login", server.base, "--username", "author", "--password-stdin", stdin=(password + "\n").encode())
    assert login.returncode == 0, login.stderr
    mode = os.stat(os.path.join(data, "config", "arvis", "credentials.json")).st_mode & 0o777
    assert mode == 0o600, f"credentials are {oct(mode)}, not 0600"
    token = account(server, "author")
    status, _, _ = request(server, "POST", "/api/v1/projects", {"name": "Museum", "visibility": "unlisted"}, token)
    assert status == 201
    examples = os.path.dirname(EXAMPLE)
    for name, file in (("tour", "two-targets-environment.json"), ("label", "museum-label.yaml")):
        path = os.path.join(examples, file)
        pushed = arvis("push", path, f"{server.base}/s/museum/{name}")
        assert pushed.returncode == 0, pushed.stderr
        pulled = arvis("pull", f"{server.base}/s/museum/{name}")
        with open(path, "rb") as original:
            assert pulled.returncode == 0 and pulled.stdout == original.read(), f"{file} did not come back byte for byte"
    bad = os.path.join(data, "bad.json")
    with open(bad, "w") as file:
        file.write('{\n  "text": {"content": 5}\n}\n')
    refused = arvis("push", bad, f"{server.base}/s/museum/bad")
    assert refused.returncode == 1 and b"bad.json:2:" in refused.stderr, refused.stderr
    stale = arvis("push", os.path.join(examples, "two-targets-environment.json"), f"{server.base}/s/museum/tour", "--if-match", '"9-0000"')
    assert stale.returncode == 1, stale.stderr
    server.stop()
    print("remote: login (token kept 0600), push and pull of JSON and YAML byte for byte, invalid and stale pushes refused")


def live(args):
    import websockets.sync.client
    data_a, data_b = tempfile.mkdtemp(prefix="arvis-live-a-"), tempfile.mkdtemp(prefix="arvis-live-b-")
    first = Server(args.binary, data_a, args.database).start()
    second = Server(args.binary, data_b, args.database).start() if args.database else first
    token = account(first, f"live{time.time_ns()}")
    status, body, _ = request(first, "POST", "/api/v1/projects", {"name": f"Live {time.time_ns()}", "visibility": "public"}, token)
    assert status == 201, body
    slug = json.loads(body)["slug"]
    with open(EXAMPLE, "rb") as example:
        spec = json.load(example)
    assert request(first, "PUT", f"/api/v1/projects/{slug}/specs/tour", spec, token)[0] == 201

    # Three clients of the second instance: arvis watch, an event-stream reader, a room member.
    environment = dict(os.environ, ARVIS_TOKEN=token)
    watch = subprocess.Popen([args.binary, "watch", f"{second.base}/s/{slug}/tour", "--format", "json", "--count", "4"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    events, arrivals = [], {}

    def read_events():
        with urllib.request.urlopen(urllib.request.Request(f"{second.base}/live/{slug}/tour"), timeout=30) as stream:
            for line in stream:
                if line.startswith(b"data: "):
                    message = json.loads(line[6:])
                    events.append(message)
                    arrivals[("sse", message.get("version"))] = time.monotonic()
                    if message.get("version") == 3:
                        return

    reader = threading.Thread(target=read_events, daemon=True)
    reader.start()
    room = websockets.sync.client.connect(f"ws://127.0.0.1:{second.port}/live/{slug}/rooms/visit",
                                          additional_headers={"Authorization": f"Bearer {token}"}, legacy=True)
    welcome = json.loads(room.recv(timeout=10))
    assert welcome["type"] == "welcome", welcome
    time.sleep(0.5)

    sent = {}
    for version in (2, 3):
        spec["imageTrackingConfigurations"][0]["relationships"][0]["widgetConfiguration"]["component"] = {"text": {"content": f"Poster A, take {version}"}}
        sent[version] = time.monotonic()
        status, body, _ = request(first, "PUT", f"/api/v1/projects/{slug}/specs/tour", spec, token)
        assert status == 200, body
        time.sleep(0.2)
    planted_at = time.monotonic()
    status, body, _ = request(first, "POST", f"/api/v1/projects/{slug}/trees", {"species": "Quercus suber", "position": {"x": 3, "z": 4}}, token)
    assert status == 201, body
    tree = json.loads(body)
    message = json.loads(room.recv(timeout=5))
    tree_delay = time.monotonic() - planted_at
    assert message["type"] == "tree" and message["tree"]["id"] == tree["id"], message
    assert request(first, "DELETE", f"/api/v1/projects/{slug}/trees/{tree['id']}", token=token)[0] == 204
    removed = json.loads(room.recv(timeout=5))
    assert removed == {"type": "treeRemoved", "seq": removed["seq"], "id": tree["id"]}, removed
    room.close()
    reader.join(timeout=10)
    versions = [event["version"] for event in events if event["type"] == "spec"]
    assert versions == [1, 2, 3], f"the event stream saw {versions}"
    assert [event["changed"] for event in events[1:]] == [["image1-widget1"]] * 2, events
    sse_delay = max(arrivals[("sse", version)] - sent[version] for version in (2, 3))
    assert sse_delay < 1, f"an update took {sse_delay:.3f} s to reach the second instance's event stream"

    # The second instance restarts: the watcher reconnects and resumes with what it missed.
    if second is first:
        second.kill()
        first = second = Server(args.binary, data_a, args.database, port=first.port).start()
    else:
        second.kill()
        second = Server(args.binary, data_b, args.database, port=second.port).start()
    spec["imageTrackingConfigurations"][0]["relationships"][1]["widgetConfiguration"]["relativeAnchorPoint"] = "leading"
    assert request(first, "PUT", f"/api/v1/projects/{slug}/specs/tour", spec, token)[0] == 200
    try:
        output, errors = watch.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        watch.kill()
        sys.exit(f"arvis watch did not see version 4 after the restart: {watch.communicate()}")
    updates = [json.loads(line) for line in output.decode().splitlines()]
    assert watch.returncode == 0 and [update["version"] for update in updates] == [1, 2, 3, 4], (updates, errors)
    assert updates[3]["changed"] == ["image1-widget2"], updates[3]
    # An open event stream must not hold a graceful stop: it is closed with `event: close`.
    held = urllib.request.urlopen(urllib.request.Request(f"{second.base}/live/{slug}/tour?version=4"), timeout=30)
    for server in {id(first): first, id(second): second}.values():
        server.stop()
    closing = held.read().decode()
    assert "event: close" in closing and '"code":1001' in closing, closing
    where = "two instances on one PostgreSQL" if args.database else "one instance on SQLite"
    print(f"live ({where}): arvis watch, an event stream and a room on the second instance saw every write made through the first "
          f"(from sending the write: event stream within {sse_delay * 1000:.0f} ms, room within {tree_delay * 1000:.0f} ms); "
          f"after a restart the watcher resumed with the version it missed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="check", required=True)
    for name in ("durability", "contract", "limits", "remote", "live"):
        command = sub.add_parser(name)
        command.add_argument("binary")
        command.add_argument("--database")
    sub.choices["durability"].add_argument("--seconds", type=float, default=3)
    sub.choices["contract"].add_argument("--seed", type=int, default=1)
    sub.choices["contract"].add_argument("--max-time", type=int, default=240)
    args = parser.parse_args()
    {"durability": durability, "contract": contract, "limits": limits, "remote": remote, "live": live}[args.check](args)


if __name__ == "__main__":
    main()
