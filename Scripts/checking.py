"""What the check scripts share: counting checks and printing the closing 'N passed, N failed' line,
and talking to a live `arvis serve` (one started for a `with` block, JSON calls, waiting for it to
answer)."""
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time


class Checks:
    """Counts checks, printing `ok` or `FAIL` with the detail for each."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def __call__(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}", flush=True)
        return condition

    def require(self, name, condition, detail=""):
        """A check the rest depends on: when it fails, finishes at once (exit 1)."""
        if not self(name, condition, detail):
            self.finish()
        return condition

    def finish(self):
        """Prints the closing line and exits 1 when any check failed."""
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


def free_port():
    """A TCP port nobody listens on, on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, token=None, content_type="application/json", headers=None):
    """Calls the server: a dict or list body goes as JSON; answers JSON decoded, anything else as bytes."""
    # Imported here: urllib.request loads the system's libssl, and f3d (check_models.py) must load
    # its own newer one first.
    import urllib.request
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", content_type)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=60) as response:
        payload = response.read()
        return json.loads(payload) if response.headers.get("Content-Type", "").startswith("application/json") else payload


def wait_until_up(base, seconds=10):
    """Waits for /health to answer."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            call(base, "GET", "/health")
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the server at {base} did not answer within {seconds} s")


@contextlib.contextmanager
def served(binary, seconds=30, args=(), env=None):
    """A fresh `arvis serve` for the `with` block, on a free port with its own data folder: its
    base URL. `args`: more options for it; `env`: more environment. Its output goes to serve.log
    in that folder and is printed when it does not come up; it is stopped, and the folder
    removed, when the block ends."""
    data = tempfile.mkdtemp(prefix="arvis-check-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(os.path.join(data, "serve.log"), "wb") as log:
        server = subprocess.Popen([binary, "serve", "--data", data, "--port", str(port), *args], stdout=log, stderr=log,
                                  stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    try:
        try:
            wait_until_up(base, seconds)
        except SystemExit:
            with open(os.path.join(data, "serve.log"), errors="replace") as log:
                print(log.read()[-4000:], file=sys.stderr)
            raise
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(data, ignore_errors=True)


def wait_for(page, script, timeout=20, every=0.05):
    """Polls `script` in a Playwright page or frame every `every` seconds until it is truthy and
    returns it (the last value after `timeout` seconds). page.evaluate runs outside the page's CSP;
    wait_for_function would not. A page navigating (a reload) is asked again."""
    from playwright.sync_api import Error as PlaywrightError
    deadline = time.time() + timeout
    value = None
    while time.time() < deadline:
        try:
            value = page.evaluate(script)
        except PlaywrightError:
            value = None
        if value:
            return value
        time.sleep(every)
    return value


# The orbit viewer's state once it drew a frame or failed: {frames, error}.
VIEWER_STATE = ("window.arvisViewer && (window.arvisViewer.frames > 0 || window.arvisViewer.error)"
                " && {frames: window.arvisViewer.frames, error: window.arvisViewer.error}")


def wait_for_frame(page, timeout=60):
    """The orbit viewer's first frame (or its error) in `page`."""
    return wait_for(page, VIEWER_STATE, timeout) or {"frames": 0, "error": "no frame within the timeout"}
