""".ci/docker_smoke.sh where no Docker daemon can run: one line says so and it exits 0, so CI goes
on (the image itself is built and smoke-tested by .ci/run where a daemon runs). Stand-ins on PATH
play the machine: a `docker` whose daemon does not answer, no `apt-get` that can install one, and a
`dockerd` that cannot start."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "docker_smoke.sh"


def stand_in(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def run(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin"}  # not /usr/sbin: no real dockerd
    return subprocess.run(["bash", str(SCRIPT)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_no_daemon_and_none_installable_is_one_line(tmp_path: Path) -> None:
    stand_in(tmp_path, "docker", "exit 1")  # `docker info`: cannot connect
    stand_in(tmp_path, "apt-get", "exit 100")
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    skipped = "image smoke test skipped: no Docker daemon here and docker.io could not be installed"
    assert done.stdout.splitlines() == [skipped]


def test_a_daemon_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    stand_in(tmp_path, "docker", "exit 1")
    fatal = 'level=fatal msg=\\"failed to start daemon: operation not permitted\\"'
    stand_in(tmp_path, "dockerd", f'echo "{fatal}" >&2; exit 1')
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("image smoke test skipped: no Docker daemon can run on this machine")
    assert "operation not permitted" in lines[0]
