#!/usr/bin/env python3
"""Runs the README's walk-through as written: every ```sh block after a `<!-- walk-through -->`
line, in bash with `set -e`, in an empty folder beside the repository's Examples, with `arvis` and
`swift run arvis` meaning the built binary and port 8080 replaced by a free one (so a server already
on 8080 cannot answer for the new one). Each line must succeed, and the comments that say what a
line prints (`# saved version 1`, `# ana  owner`) must be what it printed.

Usage: python3 Scripts/check_readme.py .build/debug/arvis [README.md]
"""
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from checking import Checks, free_port

MARKER = "<!-- walk-through -->"


def walk_through(readme):
    """The shell text of every block the marker introduces."""
    blocks = re.findall(re.escape(MARKER) + r"\s*```sh\n(.*?)```", readme, re.S)
    return "\n".join(blocks)


def promise(line):
    """`(command, text)` when the line's comment says what it prints (`cmd  # saved version 1`;
    words after a parenthesis explain), else None. A line sent to the background promises nothing."""
    command, _, comment = line.partition("  #")
    if not comment.strip() or command.rstrip().endswith("&"):
        return None
    return command.rstrip(), comment.strip().split(" (")[0]


def main():
    binary = pathlib.Path(sys.argv[1]).resolve()
    root = pathlib.Path(__file__).resolve().parent.parent
    readme = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else root / "README.md").read_text(encoding="utf-8")
    checks = Checks()
    script = walk_through(readme)
    checks.require("the README has a walk-through", script.strip() != "")
    port = free_port()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="arvis-readme-"))
    os.symlink(root / "Examples", folder / "Examples")
    prelude = f"""
set -euo pipefail
export HOME={folder} XDG_CONFIG_HOME={folder}/config
arvis() {{ if [ "${{1:-}}" = serve ]; then shift; "{binary}" serve --port {port} "$@"; else "{binary}" "$@"; fi; }}
swift() {{ if [ "${{1:-}}" = run ] && [ "${{2:-}}" = arvis ]; then shift 2; arvis "$@"; else command swift "$@"; fi; }}
"""
    # Each promised line's output is captured to a file named by its line number, and printed too.
    lines = []
    for number, line in enumerate(script.replace(":8080", f":{port}").splitlines()):
        if promised := promise(line):
            line = f"{{ {promised[0]} ; }} 2>&1 | tee {folder}/out-{number}"
        lines.append(line)
    try:
        # Its own session, so the server it starts in the background goes with it; output to a
        # file, since the server would hold a pipe open.
        with open(folder / "output", "w") as log:
            shell = subprocess.Popen(["bash", "-c", prelude + "\n".join(lines)], cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
            try:
                status = shell.wait(timeout=300)
            except subprocess.TimeoutExpired:
                status = "a timeout (300 s)"
            finally:
                os.killpg(shell.pid, signal.SIGTERM)
        print((folder / "output").read_text()[-3000:])
        checks("every line of the walk-through succeeds", status == 0, f"ended with {status}")
        for number, line in enumerate(script.splitlines()):
            if not (promised := promise(line)):
                continue
            command, text = promised
            output = (folder / f"out-{number}").read_text() if (folder / f"out-{number}").exists() else ""
            checks(f"`{command[:60]}…` prints {text!r}", " ".join(text.split()) in " ".join(output.split()), output[-500:])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    checks.finish()


if __name__ == "__main__":
    main()
