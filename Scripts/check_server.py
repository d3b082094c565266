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
      hold SIGTERM: the server closes it and stops. Across two instances, a room: presence, WebRTC
      signals (a 20 KB offer), poses and planes, and a tap through a frame's pose.

Usage: python3 Scripts/check_server.py durability .build/release/arvis
Prints one line per check and ends with `N passed, N failed`.
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
from checking import Checks, free_port  # noqa: E402

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Examples", "two-targets-environment.json")
check = Checks()


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
                check.require("arvis serve answers /health", False, f"(it exited with {self.process.returncode})")
            time.sleep(0.1)
        check.require("arvis serve answers /health", False, "(not within 60 s)")

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
            code = "no exit within 10 s"
        check("arvis serve stops on SIGTERM within 10 s, with status 0", code == 0, f"({code})")


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
    check.require("an account signs in", status == 201, (status, body))
    return json.loads(body)["token"]


def durability(args):
    data = tempfile.mkdtemp(prefix="arvis-durability-")
    server = Server(args.binary, data, args.database).start()
    token = account(server, "writer")
    status, body, _ = request(server, "POST", "/api/v1/projects", {"name": f"Durable {time.time_ns()}", "visibility": "private"}, token)
    check.require("a project is created", status == 201, body)
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
    lost_specs = []
    for name, version, content in acknowledged_specs:
        status, body, _ = request(restarted, "GET", f"/api/v1/projects/{slug}/specs/{name}/versions/{version}", token=token)
        if status != 200 or body != content:
            lost_specs.append(f"{name} version {version} ({status})")
    status, body, _ = request(restarted, "GET", f"/api/v1/projects/{slug}/trees", token=token)
    stored = {tree["id"] for tree in json.loads(body)["trees"]}
    lost_trees = [str(tree) for tree in acknowledged_trees if tree not in stored]
    restarted.stop()
    check(f"writes acknowledged before SIGKILL: {len(acknowledged_specs)} spec versions, {len(acknowledged_trees)} trees",
          acknowledged_specs and acknowledged_trees)
    check("every acknowledged spec version is there after the restart, unchanged", not lost_specs, f"lost: {', '.join(lost_specs)}")
    check("every acknowledged tree is there after the restart", not lost_trees, f"lost: {', '.join(lost_trees)}")
    if not args.database:
        result = sqlite3.connect(os.path.join(data, "arvis.sqlite")).execute("PRAGMA integrity_check").fetchone()[0]
        check("the SQLite database passes integrity_check", result == "ok", result)


def contract(args):
    data = tempfile.mkdtemp(prefix="arvis-contract-")
    server = Server(args.binary, data, args.database).start()
    token = account(server, "fuzzer")
    status, _, _ = request(server, "POST", "/api/v1/projects", {"name": "Fuzz", "slug": "fuzz", "visibility": "public"}, token)
    check.require("a project is created", status == 201, status)
    with open(EXAMPLE, "rb") as example:
        status, _, _ = request(server, "PUT", "/api/v1/projects/fuzz/specs/tour", example.read(), token)
    check.require("a spec is saved", status == 201, status)
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
    check("schemathesis finds nothing the contract does not allow", result.returncode == 0, f"(it exited with {result.returncode})")
    server.stop()


def limits(args):
    data = tempfile.mkdtemp(prefix="arvis-limits-")
    server = Server(args.binary, data).start()
    statuses = [request(server, "POST", "/api/v1/sessions", {"username": f"guess{n}", "password": "wrong password!"})[0] for n in range(60)]
    server.stop()
    check(f"50 failed sign-ins from one address over 50 accounts, then {statuses[50:].count(429)} × 429",
          429 in statuses and statuses[:50] == [401] * 50, f"(got {statuses})")


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
    check.require("arvis login signs in", login.returncode == 0, login.stderr)
    mode = os.stat(os.path.join(data, "config", "arvis", "credentials.json")).st_mode & 0o777
    check("arvis login keeps the token in a file of mode 0600", mode == 0o600, f"(it is {oct(mode)})")
    created = arvis("project", "create", server.base, "Museum", "--visibility", "unlisted")
    check.require("arvis project create prints the new project's slug", created.returncode == 0 and created.stdout == b"museum\n", created.stderr)
    taken = arvis("project", "create", server.base, "Museum again", "--slug", "museum")
    check("a slug taken is refused (exit 2) with what to do", taken.returncode == 2 and b"--slug" in taken.stderr, taken.stderr)
    listed = arvis("project", "list", server.base)
    check("arvis project list shows slug, role, visibility and name", listed.stdout.split() == [b"museum", b"owner", b"unlisted", b"Museum"], listed.stdout)
    shown = arvis("project", "show", server.base, "nowhere")
    check("arvis project show of no project fails (exit 2)", shown.returncode == 2 and b"error:" in shown.stderr, shown.stderr)
    request(server, "POST", "/api/v1/accounts", {"username": "eddy", "password": password})
    added = arvis("members", "add", server.base, "museum", "eddy", "--role", "editor")
    members = arvis("members", "list", server.base, "museum")
    check("arvis members add, then list", added.returncode == 0 and members.stdout.split() == [b"author", b"owner", b"eddy", b"editor"],
          added.stderr + members.stdout)
    last_owner = arvis("members", "remove", server.base, "museum", "author")
    removed = arvis("members", "remove", server.base, "museum", "eddy")
    members = arvis("members", "list", server.base, "museum")
    check("the last owner stays; arvis members remove removes", last_owner.returncode == 2 and removed.returncode == 0
          and members.stdout.split() == [b"author", b"owner"], last_owner.stderr + removed.stderr + members.stdout)
    anonymous = subprocess.run([args.binary, "project", "list", server.base], capture_output=True,
                               env=dict(environment, XDG_CONFIG_HOME=os.path.join(data, "nobody")))
    check("without a sign-in, project list says how to sign in (exit 2)", anonymous.returncode == 2 and b"arvis login" in anonymous.stderr,
          anonymous.stderr)
    examples = os.path.dirname(EXAMPLE)
    for name, file in (("tour", "two-targets-environment.json"), ("label", "museum-label.yaml")):
        path = os.path.join(examples, file)
        pushed = arvis("push", path, f"{server.base}/s/museum/{name}")
        check(f"arvis push {file}", pushed.returncode == 0, pushed.stderr)
        pulled = arvis("pull", f"{server.base}/s/museum/{name}")
        with open(path, "rb") as original:
            check(f"arvis pull gives {file} back byte for byte", pulled.returncode == 0 and pulled.stdout == original.read(), pulled.stderr)
    bad = os.path.join(data, "bad.json")
    with open(bad, "w") as file:
        file.write('{\n  "text": {"content": 5}\n}\n')
    refused = arvis("push", bad, f"{server.base}/s/museum/bad")
    check("an invalid spec is refused with located diagnostics (exit 1)", refused.returncode == 1 and b"bad.json:2:" in refused.stderr, refused.stderr)
    stale = arvis("push", os.path.join(examples, "two-targets-environment.json"), f"{server.base}/s/museum/tour", "--if-match", '"9-0000"')
    check("a stale --if-match is refused (exit 1)", stale.returncode == 1, stale.stderr)
    trashed = arvis("project", "delete", server.base, "museum")
    in_trash = arvis("project", "list", server.base, "--trashed").stdout.split()[:1]
    check("arvis project delete moves the project to the trash", trashed.returncode == 0 and arvis("project", "list", server.base).stdout == b""
          and in_trash == [b"museum"], trashed.stderr)
    restored = arvis("project", "restore", server.base, "museum")
    check("arvis project restore takes it out", restored.returncode == 0 and arvis("project", "list", server.base).stdout.startswith(b"museum"),
          restored.stderr)
    server.stop()


def live(args):
    import websockets.sync.client
    data_a, data_b = tempfile.mkdtemp(prefix="arvis-live-a-"), tempfile.mkdtemp(prefix="arvis-live-b-")
    first = Server(args.binary, data_a, args.database).start()
    second = Server(args.binary, data_b, args.database).start() if args.database else first
    token = account(first, f"live{time.time_ns()}")
    status, body, _ = request(first, "POST", "/api/v1/projects", {"name": f"Live {time.time_ns()}", "visibility": "public"}, token)
    check.require("a project is created", status == 201, body)
    slug = json.loads(body)["slug"]
    with open(EXAMPLE, "rb") as example:
        spec = json.load(example)
    status, body, _ = request(first, "PUT", f"/api/v1/projects/{slug}/specs/tour", spec, token)
    check.require("a spec is saved", status == 201, body)

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
    check.require("a room member is welcomed", welcome["type"] == "welcome", welcome)
    time.sleep(0.5)

    sent = {}
    for version in (2, 3):
        spec["imageTrackingConfigurations"][0]["relationships"][0]["widgetConfiguration"]["component"] = {"text": {"content": f"Poster A, take {version}"}}
        sent[version] = time.monotonic()
        status, body, _ = request(first, "PUT", f"/api/v1/projects/{slug}/specs/tour", spec, token)
        check.require(f"version {version} is saved", status == 200, body)
        time.sleep(0.2)
    planted_at = time.monotonic()
    status, body, _ = request(first, "POST", f"/api/v1/projects/{slug}/trees", {"species": "Quercus suber", "position": {"x": 3, "z": 4}}, token)
    check.require("a tree is planted", status == 201, body)
    tree = json.loads(body)
    message = json.loads(room.recv(timeout=5))
    tree_delay = time.monotonic() - planted_at
    check(f"the room sees the tree, {tree_delay * 1000:.0f} ms after it was sent",
          message["type"] == "tree" and message["tree"]["id"] == tree["id"], message)
    status, body, _ = request(first, "DELETE", f"/api/v1/projects/{slug}/trees/{tree['id']}", token=token)
    check.require("the tree is deleted", status == 204, body)
    removed = json.loads(room.recv(timeout=5))
    check("the room sees the tree removed", removed == {"type": "treeRemoved", "seq": removed["seq"], "id": tree["id"]}, removed)
    room.close()
    reader.join(timeout=10)
    versions = [event["version"] for event in events if event["type"] == "spec"]
    check.require("the event stream sees versions 1, 2 and 3", versions == [1, 2, 3], f"(it saw {versions})")
    check("each event names the widget that changed", [event["changed"] for event in events[1:]] == [["image1-widget1"]] * 2, events)
    sse_delay = max(arrivals[("sse", version)] - sent[version] for version in (2, 3))
    check(f"the event stream sees each update within 1 s of sending it ({sse_delay * 1000:.0f} ms)", sse_delay < 1)

    if second is not first:
        room_across_instances(first, second, slug, token)

    # The second instance restarts: the watcher reconnects and resumes with what it missed.
    if second is first:
        second.kill()
        first = second = Server(args.binary, data_a, args.database, port=first.port).start()
    else:
        second.kill()
        second = Server(args.binary, data_b, args.database, port=second.port).start()
    spec["imageTrackingConfigurations"][0]["relationships"][1]["widgetConfiguration"]["relativeAnchorPoint"] = "leading"
    status, body, _ = request(first, "PUT", f"/api/v1/projects/{slug}/specs/tour", spec, token)
    check.require("version 4 is saved after the restart", status == 200, body)
    try:
        output, errors = watch.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        watch.kill()
        check.require("arvis watch sees version 4 after the restart", False, watch.communicate())
    updates = [json.loads(line) for line in output.decode().splitlines()]
    check.require("arvis watch sees versions 1 to 4, resuming after the restart",
                  watch.returncode == 0 and [update["version"] for update in updates] == [1, 2, 3, 4], (updates, errors))
    check("version 4 names the widget that changed", updates[3]["changed"] == ["image1-widget2"], updates[3])
    # An open event stream must not hold a graceful stop: it is closed with `event: close`.
    held = urllib.request.urlopen(urllib.request.Request(f"{second.base}/live/{slug}/tour?version=4"), timeout=30)
    for server in {id(first): first, id(second): second}.values():
        server.stop()
    closing = held.read().decode()
    check("SIGTERM closes an open event stream with `event: close` (1012: reconnect elsewhere)",
          "event: close" in closing and '"code":1012' in closing, closing)


def pose_packet(frame, position, viewport=(400, 300)):
    """An ARVis pose packet (62 bytes): looking straight down from `position`, pinhole intrinsics."""
    import struct
    import zlib
    body = struct.pack("<BBHHIdffffffffff", 1, 0, viewport[0], viewport[1], frame, time.time(), *position,
                       -0.7071068, 0, 0, 300, 300, viewport[0] / 2, viewport[1] / 2)
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def room_across_instances(first, second, slug, token):
    """A device in a room through the first instance and an expert through the second: each knows
    the other is there, signals cross (a long offer in parts), the device's poses and planes reach the
    expert, the expert's tap on a frame lands through that frame's pose, and the device leaving is
    seen."""
    import websockets.sync.client
    headers = {"Authorization": f"Bearer {token}"}
    device = websockets.sync.client.connect(f"ws://127.0.0.1:{first.port}/live/{slug}/rooms/across?role=publisher",
                                            additional_headers=headers, legacy=True)
    device_id = json.loads(device.recv(timeout=10))["you"]
    expert = websockets.sync.client.connect(f"ws://127.0.0.1:{second.port}/live/{slug}/rooms/across",
                                            additional_headers=headers, legacy=True)
    welcome = json.loads(expert.recv(timeout=10))
    expert_id = welcome["you"]

    def next_of(socket, kind, seconds=3):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                message = socket.recv(timeout=max(0.05, deadline - time.monotonic()))
            except TimeoutError:
                break
            if isinstance(message, bytes):
                if kind == "pose":
                    return message
                continue
            message = json.loads(message)
            if message.get("type") == kind:
                return message
        return None

    seen = [m["id"] for m in welcome["members"]] or [(next_of(expert, "memberJoined") or {}).get("member", {}).get("id")]
    check("across instances: the expert's instance knows the device is in the room", device_id in seen, (device_id, seen))
    joined = next_of(device, "memberJoined")
    check("across instances: the device hears the expert joined", joined and joined["member"]["id"] == expert_id, joined)

    sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n" + "a=x-padding:" + "z" * 20_000 + "\r\n"
    device.send(json.dumps({"type": "signal", "to": expert_id, "kind": "offer", "sdp": sdp}))
    offer = next_of(expert, "signal")
    check("across instances: a 20 KB offer reaches the expert whole, from the device",
          offer and offer["from"] == device_id and offer["sdp"] == sdp, offer and {k: v for k, v in offer.items() if k != "sdp"})
    expert.send(json.dumps({"type": "signal", "to": device_id, "kind": "answer", "sdp": sdp[:200]}))
    answer = next_of(device, "signal")
    check("across instances: the expert's answer reaches the device", answer and answer["kind"] == "answer" and answer["from"] == expert_id, answer)

    device.send(json.dumps({"type": "planes", "planes": [{"point": [0, 0.5, 0], "normal": [0, 1, 0]}]}))
    packet = pose_packet(41, (0.0, 2.0, 0.0))
    time.sleep(0.3)
    device.send(packet)
    pose = next_of(expert, "pose")
    check("across instances: the device's pose reaches the expert byte for byte", pose == packet, pose)
    expert.send(json.dumps({"type": "annotate", "tap": [0.5, 0.5], "frame": 41, "clientId": "across-1"}))
    placed = next_of(device, "annotation")
    point = placed and placed["annotation"]["position"]
    check("across instances: the expert's tap on frame 41 lands through that frame's pose on the device's plane (y = 0.5)",
          point and abs(point["x"]) < 1e-3 and abs(point["y"] - 0.5) < 1e-3 and abs(point["z"]) < 1e-3
          and placed["annotation"]["clientId"] == "across-1", placed)
    device.close()
    left = next_of(expert, "memberLeft")
    check("across instances: the expert sees the device leave", left and left["id"] == device_id, left)
    expert.close()


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
    print(f"# {args.check}" + (" on PostgreSQL" if args.database else ""))
    {"durability": durability, "contract": contract, "limits": limits, "remote": remote, "live": live}[args.check](args)
    check.finish()


if __name__ == "__main__":
    main()
