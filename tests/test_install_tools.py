"""tools/install-system-tools asks apt only for what is missing, and checks each ask first.

apt-get is replaced by a stand-in on PATH that records what it is asked and answers as apt
did on a fresh machine of this kind (Node.js and npm from outside Debian: Debian's npm
conflicts with them); nothing is installed or removed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sitebuild.site import ROOT

SCRIPT = ROOT / "tools" / "install-system-tools"
FAKE_APT = """#!/usr/bin/env bash
echo "$*" >> "$APT_LOG"
case " $* " in
  *" -s "*npm*|*" -s "*nodejs*)
    echo "The following packages have unmet dependencies:"
    echo " nodejs : Conflicts: npm"
    echo "E: Unable to correct problems, you have held broken packages."
    exit 100 ;;
  *" -s "*) echo "Inst ${*: -1} (1.0 Debian:12/stable [amd64])"; echo "Conf ${*: -1}" ;;
esac
exit 0
"""


@pytest.fixture
def run(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "apt-get").write_text(FAKE_APT)
    (bin_dir / "apt-get").chmod(0o755)
    (bin_dir / "sudo").write_text('#!/usr/bin/env bash\nexec "$@"\n')
    (bin_dir / "sudo").chmod(0o755)
    log = tmp_path / "apt.log"

    def go(*args, missing=""):
        env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "APT_LOG": str(log),
               "ATTENTION_BENCH_ASSUME_MISSING": missing}
        result = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env)
        asked = log.read_text().splitlines() if log.exists() else []
        return result, asked
    return go


def test_nothing_is_asked_of_apt_when_every_tool_is_present(run):
    result, asked = run("--dry-run")
    assert result.returncode == 0 and "all present" in result.stdout
    assert asked == []


def test_a_fresh_machine_is_asked_for_chromium_alone(run):
    result, asked = run("--dry-run", missing="chromium")
    assert result.returncode == 0, result.stderr
    assert asked == ["update -qq", "install -s -y --no-install-recommends chromium"]
    assert "would install chromium" in result.stdout and "Inst chromium" in result.stdout


def test_each_missing_tool_is_asked_on_its_own(run):
    result, asked = run("--dry-run", missing="chromium fonts java")
    assert result.returncode == 0, result.stderr
    assert [a for a in asked if a != "update -qq"] == [
        "install -s -y --no-install-recommends chromium",
        "install -s -y --no-install-recommends fonts-dejavu-core fonts-dejavu-extra fonts-wqy-microhei fontconfig",
        "install -s -y --no-install-recommends default-jre-headless",
    ]


def test_a_package_apt_would_refuse_is_never_installed_and_the_reason_is_given(run):
    result, asked = run(missing="npm")  # a real run: it must stop at the simulation
    assert result.returncode == 1
    assert "cannot install npm with apt" in result.stderr and "Conflicts: npm" in result.stderr
    assert not any(" -s " not in f" {a} " and a.startswith("install") for a in asked)


def test_check_says_what_is_missing_without_asking_apt(run):
    result, asked = run("--check", missing="java node")
    assert result.returncode == 1 and "system tools missing: java node" in result.stdout
    assert asked == []
    assert run("--bogus")[0].returncode == 2


def test_the_makefile_installs_system_tools_only_for_the_tests():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    serve = next(line for line in makefile.splitlines() if line.startswith("serve:"))
    assert "system-packages" not in serve and "node_modules" not in serve
    assert Path(SCRIPT).stat().st_mode & 0o111


def test_a_machine_without_the_other_engines_is_asked_for_firefox_webkit_and_xvfb(run):
    """The cross-engine tests need Debian's Firefox ESR, WebKitGTK's WebDriver and Xvfb: each
    is asked for on its own, only when missing, like Chromium."""
    result, asked = run("--dry-run", missing="firefox webkit xvfb")
    assert result.returncode == 0, result.stderr
    assert [a for a in asked if a != "update -qq"] == [
        "install -s -y --no-install-recommends firefox-esr",
        "install -s -y --no-install-recommends webkit2gtk-driver",
        "install -s -y --no-install-recommends xvfb",
    ]
    assert "system tools missing: firefox webkit xvfb" in result.stdout
