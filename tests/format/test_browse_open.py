"""`mdcx browse` without --no-open hands its address, access code included, to the default browser."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers.browse import KEY, build

# Python's webbrowser module runs $BROWSER (with %s for the address) before any
# other browser: this one only writes down what it was asked to open.
RECORDER = "import sys, pathlib; pathlib.Path(sys.argv[1]).write_text(sys.argv[2])"


def test_the_default_browser_is_asked_to_open_the_page(tmp_path: Path) -> None:
    main, _ = build(tmp_path / "packages")
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    opened = tmp_path / "opened.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MDCX_")}
    env.update(MDCX_KEY=KEY, BROWSER=f"{sys.executable} {script} {opened} %s")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mdcx.format", "browse", str(main)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving "), line
        deadline = time.monotonic() + 30
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        url = line.split(" at ", 1)[1].strip()
        assert opened.read_text() == url and "#k=" in url
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err
