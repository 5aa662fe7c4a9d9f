"""`mdcx browse` as a command: bad input, serving until interrupted, keys, hosts, the browser."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.browse import KEY, OTHER_KEY, build
from helpers.command import run_mdcx

# Python's webbrowser module runs $BROWSER (with %s for the address) before any
# other browser: this one only writes down what it was asked to open.
RECORDER = "import sys, pathlib; pathlib.Path(sys.argv[1]).write_text(sys.argv[2])"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build(tmp_path_factory.mktemp("browse-command"))


def mdcx(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run_mdcx(*args, env=env, timeout=60)


def one_line_error(proc: subprocess.CompletedProcess, needle: str) -> None:
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mdcx: error: ") and needle in lines[0], proc.stderr


def test_bad_input_gives_one_line(packages, tmp_path: Path) -> None:
    one_line_error(mdcx("browse", str(tmp_path / "missing.mdcx"), "--no-open"), "no such file")
    (tmp_path / "not.mdcx").write_text("hello")
    one_line_error(mdcx("browse", str(tmp_path / "not.mdcx"), "--no-open"), "not.mdcx")
    one_line_error(mdcx("browse", str(packages[0]), "--no-open", "--port", "70000"), "65535")
    one_line_error(
        mdcx("browse", str(packages[0]), "--no-open", "--key-file", str(tmp_path / "nokey")), "does not exist"
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        one_line_error(
            mdcx("browse", str(packages[0]), "--no-open", "--port", port),
            f"port {port} on 127.0.0.1 is in use",
        )


def serve(*args: str, env: dict | None = None, open_page: bool = False) -> tuple[subprocess.Popen, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MDCX_")}
    flags = [] if open_page else ["--no-open"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mdcx.format", "browse", *flags, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**clean, **(env or {})},
    )
    line = proc.stdout.readline()
    assert line.startswith("serving "), line + proc.stderr.read()
    return proc, line


def stop(proc: subprocess.Popen) -> tuple[str, str]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "stopped; the packages are closed" in out and "Traceback" not in err
    return out, err


def test_command_serves_until_interrupted(packages) -> None:
    proc, line = serve(*map(str, packages), env={"MDCX_KEY": f"{KEY},{OTHER_KEY}"})
    url = re.search(r"http://127\.0\.0\.1:(\d+)/#k=([\w-]+)", line)
    assert url, line
    port, token = int(url.group(1)), url.group(2)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(
        "POST", "/api/state", body=b"{}", headers={"Content-Type": "application/json", "X-Mdcx-Token": token}
    )
    state = json.loads(conn.getresponse().read())
    conn.close()
    assert [p["unlocked"] for p in state["packages"]] == [True, True]
    out, err = stop(proc)
    assert KEY not in out + err and token not in err


def test_wrong_key_at_start_leaves_the_page_to_ask(packages) -> None:
    proc, _ = serve(str(packages[0]), env={"MDCX_KEY": "wrong"})
    time.sleep(0.2)
    _, err = stop(proc)
    assert (
        "note: the passphrase does not open main.mdcx" in err and "type the passphrase into the page" in err
    )


def test_another_host_is_served_only_with_a_warning(packages) -> None:
    proc, line = serve(str(packages[0]), "--host", "0.0.0.0")
    _, err = stop(proc)
    assert err.startswith("warning: serving on 0.0.0.0, not only on this machine")
    assert "http://127.0.0.1:" in line


def test_the_default_browser_is_asked_to_open_the_page(packages, tmp_path: Path) -> None:
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    opened = tmp_path / "opened.txt"
    browser = f"{sys.executable} {script} {opened} %s"
    proc, line = serve(str(packages[0]), env={"MDCX_KEY": KEY, "BROWSER": browser}, open_page=True)
    deadline = time.monotonic() + 30
    while not opened.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    stop(proc)
    url = line.split(" at ", 1)[1].strip()
    assert opened.read_text() == url and "#k=" in url


def test_importing_the_reader_starts_no_server_code() -> None:
    code = "import sys, json, mdcx.format; print(json.dumps(sorted(sys.modules)))"
    modules = set(json.loads(subprocess.check_output([sys.executable, "-c", code])))
    assert not modules & {"http.server", "socketserver", "webbrowser", "mdcx.format._browse"}
    assert "browse" in mdcx("--help").stdout
    help_text = mdcx("browse", "--help").stdout
    for option in ("--port", "--host", "--no-open", "--key-file"):
        assert option in help_text
