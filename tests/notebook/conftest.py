"""Real notebook servers (JupyterLab, marimo) on 127.0.0.1, started and stopped by the tests,
and Debian's Chromium driven by Playwright, as in tests/browser/."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "notebooks" / "attention-in-five-cells.ipynb"
MARIMO_EXAMPLE = ROOT / "notebooks" / "attention_in_five_cells.py"
SHOTS = Path("/tmp/shots24")  # the screenshots a person looks at (issue 24)


def free_port() -> int:
    """Return a port of 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 90) -> None:
    """Wait until url answers 200, failing at once if the server has exited."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer in {seconds} s")


@contextmanager
def server(command: list[str], ready: str, cwd: Path, env: dict):
    """Run a server process (its own process group) for the with-block, then stop it."""
    log = (cwd / "server.log").open("w")
    process = subprocess.Popen(command, cwd=cwd, env={**os.environ, **env}, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(ready, process)
        yield process
    except BaseException:
        log.flush()
        print((cwd / "server.log").read_text()[-4000:])
        raise
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()


def isolated_env(home: Path) -> dict:
    """Jupyter's config, data and settings in a folder of the test's, not the machine's."""
    return {"JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"), "JUPYTER_PLATFORM_DIRS": "1",
            "IPYTHONDIR": str(home / "ipython")}


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    """A real JupyterLab on a free port of 127.0.0.1 with a token, serving a copy of the
    example; yields (base URL, token, its folder)."""
    folder = tmp_path_factory.mktemp("lab")
    shutil.copy2(EXAMPLE, folder / EXAMPLE.name)
    news = folder / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True)
    news.write_text('{"fetchNews": "false", "checkForUpdates": false}')  # no toast, no fetch
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={folder}", "--LabApp.expose_app_in_browser=True",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               "--ServerApp.port_retries=0", "--allow-root"]
    base = f"http://127.0.0.1:{port}/"
    with server(command, f"{base}api/status?token={token}", folder, isolated_env(folder)):
        yield base, token, folder


@contextmanager
def marimo_server(folder: Path, theme: str):
    """`marimo run` of the marimo example on a free port of 127.0.0.1 with a token (its
    frontend served from its wheel), in a theme; yields its address with the token."""
    config = folder / "config" / "marimo" / "marimo.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[display]\ntheme = "{theme}"\n')
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "marimo", "run", str(MARIMO_EXAMPLE), "--headless",
               "--host", "127.0.0.1", "--port", str(port), "--token-password", token, "--no-sandbox"]
    env = {"XDG_CONFIG_HOME": str(folder / "config"), "XDG_STATE_HOME": str(folder / "state"),
           "XDG_CACHE_HOME": str(folder / "cache"), "MARIMO_SKIP_UPDATE_CHECK": "1"}
    base = f"http://127.0.0.1:{port}/"
    with server(command, f"{base}health", folder, env):
        yield f"{base}?access_token={token}"


@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory):
    """The marimo example, served in marimo's light theme."""
    with marimo_server(tmp_path_factory.mktemp("marimo"), "light") as url:
        yield url
