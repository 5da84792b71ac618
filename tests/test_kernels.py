"""The warm kernels of ``dev.py book`` (tools/kernels.py) and its kernels that draw no figure.

A forked kernel must be a fresh kernel as far as a notebook can tell, and must be refused whenever the
environment differs from the server's in a way that matters at import time (then the client starts an
ordinary kernel).  A kernel that draws no figure must give nbval the same outputs, without the PNG.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from notebooks import ROOT
from tools import kernels

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork and Unix sockets only")

PROBE = [
    "import os, sys\nprint('preloaded' if 'olkit' in sys.modules else 'fresh', os.getcwd().endswith('probe'))",
    "import matplotlib.pyplot as plt\nplt.plot([0, 1])\nplt.show()",
    "x = 1\nx",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernels")
    sock = Path("/tmp") / f"olkit-test-{os.getpid()}.sock"  # short: a Unix socket's path limit
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop(kernels.SOCKET_ENV, None)
    proc = subprocess.Popen([sys.executable, "-m", "tools.kernels", "serve", str(sock)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    name = kernels.kernel_spec(folder / "jupyter", sys.executable)
    jenv = dict(env, JUPYTER_PATH=str(folder / "jupyter"), **{kernels.SOCKET_ENV: str(sock)})
    yield name, jenv, proc, folder
    proc.terminate()
    proc.wait(30)
    assert not sock.exists()


def run(name, env, folder, extra_env=None):
    """Execute PROBE in a kernel ``name`` started with ``env`` (+ ``extra_env``); its outputs per cell."""
    work = folder / "probe"
    work.mkdir(exist_ok=True)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in PROBE])
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env, **(extra_env or {}))
    try:
        NotebookClient(nb, kernel_name=name, timeout=60, resources={"metadata": {"path": str(work)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return [c.outputs for c in nb.cells]


def test_a_forked_kernel_runs_a_notebook_as_a_fresh_one(server):
    name, env, _, folder = server
    forked = run(name, env, folder)
    assert forked[0][0]["text"] == "preloaded True\n"  # forked from the warm server, in the notebook's folder
    fresh = run("python3", env, folder)
    assert fresh[0][0]["text"] == "fresh True\n"
    for a, b in zip(forked[1:], fresh[1:]):  # the figure (drawn by the inline backend) and a result
        assert [o.get("data", {}).keys() for o in a] == [o.get("data", {}).keys() for o in b]
        assert [o.get("data", {}).get("text/plain") for o in a] == [o.get("data", {}).get("text/plain") for o in b]
    assert "image/png" in forked[1][0]["data"]


def test_an_environment_read_at_import_sends_the_client_to_a_fresh_kernel(server):
    name, env, proc, folder = server
    out = run(name, env, folder, {"OLKIT_FP_PERTURB": "1"})
    assert out[0][0]["text"] == "fresh True\n"  # refused: olkit was imported without the perturbation


def test_a_killed_client_takes_its_kernel_with_it(server):
    name, env, proc, folder = server
    conn = folder / "kernel.json"
    client = subprocess.Popen([sys.executable, "-S", kernels.__file__, "connect", "-f", str(conn)],
                              env=env, start_new_session=True)
    time.sleep(3)
    kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert len(kids) == 1  # the kernel, forked by the server
    os.killpg(client.pid, signal.SIGKILL)  # what jupyter_client does to a kernel that does not stop
    client.wait()
    for _ in range(50):
        if not subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True).stdout:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the kernel outlived its client")


def test_a_kernel_that_draws_no_figure_gives_nbval_the_same_outputs(tmp_path):
    env = dict(os.environ, IPYTHONDIR=kernels.no_figures_ipython_dir(ROOT / ".cache"))
    env.pop(kernels.SOCKET_ENV, None)
    plain, bare = run("python3", dict(os.environ), tmp_path), run("python3", env, tmp_path)
    assert "image/png" in plain[1][0]["data"] and "image/png" not in bare[1][0]["data"]
    assert bare[1][0]["data"]["text/plain"] == plain[1][0]["data"]["text/plain"]
    assert bare[1][0]["data"]["text/plain"].startswith("<Figure size")


def test_a_client_waits_for_a_server_that_is_importing_and_not_for_one_that_ended(tmp_path):
    sock = Path("/tmp") / f"olkit-test-start-{os.getpid()}.sock"
    starting = Path(str(sock) + kernels.STARTING)
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.Popen([sys.executable, "-m", "tools.kernels", "serve", str(sock)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, text=True)
    starting.write_text(str(proc.pid))
    try:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        kernels._connect(probe, str(sock))  # waits while the server imports
        probe.close()
        assert not starting.exists()  # the server removed it when it listened
    finally:
        proc.terminate()
        proc.wait(30)
    starting.write_text(str(proc.pid))  # a server that has ended: no wait
    try:
        with pytest.raises(ConnectionRefusedError):
            kernels._connect(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM), str(sock))
    finally:
        starting.unlink()
