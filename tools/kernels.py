"""Jupyter kernels forked from a warm process, for nbval runs of the whole book.

A fresh ``ipykernel`` spends about 1.5 s of CPU before a notebook's first line runs: it imports
ipykernel, IPython, numpy, matplotlib and olkit, and then, while the kernel object is made, its
debugger (debugpy, about 0.25 s).  The *server* (``python -m tools.kernels serve SOCKET``) imports
them once (:data:`PRELOAD`), and a forked kernel spends about 0.06 CPU-s before the first line; nbval's kernel spec (:func:`kernel_spec`) runs the *client* (``python -S
tools/kernels.py connect -f CONNECTION_FILE``), which asks the server for a kernel.  The server forks; the
child takes the client's environment, working folder and standard streams, and starts an ordinary
``IPKernelApp`` on the connection file.  The child is a fresh kernel as far as a notebook can tell: no
cell has run in the server, which only imported modules (matplotlib's inline backend is left to the
kernel, which activates it as usual).

The client stands in for the kernel towards jupyter_client: it forwards SIGINT and SIGTERM to the
child, exits with the child's exit code, and if it is killed (jupyter_client kills its process group),
the server kills the child at once.  Whenever the server cannot give a kernel that matches a fresh one
-- no server, a different interpreter, or an environment variable that is read at import time that
differs (``OLKIT_FP_PERTURB``, ``PYTHONHASHSEED``, numpy's and OpenBLAS's CPU settings, ...: see
:data:`IMPORT_TIME`) -- the client replaces itself by an ordinary kernel (``python -m
ipykernel_launcher``).  Linux and macOS only (fork, Unix sockets); elsewhere the client always does
that.  The preloaded objects are frozen out of the garbage collector's reach (``gc.freeze``): a
kernel's collections do not walk the server's modules, and do not copy their pages.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import sys

#: The modules the server imports before it forks: what every notebook's first cell imports, and the
#: kernel itself.  matplotlib_inline's backend is left out on purpose: it wires itself to the running
#: IPython shell when it is first imported, so it must be first imported in the kernel.
PRELOAD = ["ipykernel.kernelapp", "ipykernel.ipkernel", "IPython", "numpy", "scipy", "scipy.optimize",
           "scipy.stats", "matplotlib", "matplotlib.pyplot", "ipywidgets", "olkit", "olkit.plots",
           # what a kernel imports while it starts, before any cell: its debugger class (debugpy, about
           # 0.25 s of each kernel's 0.45 s start), the shell's inspector, completer, logger, history
           # (sqlite3) and pdb, the process information (psutil) and tornado's queues
           "ipykernel.debugger", "IPython.core.completerlib", "IPython.core.debugger", "IPython.core.oinspect",
           "IPython.core.logger", "IPython.extensions.storemagic", "IPython.utils.wildcard", "sqlite3", "pdb",
           "psutil", "tornado.gen", "tornado.locks", "tornado.queues", "tornado.platform.asyncio"]

#: The garbage collector's thresholds in the forked kernels (Python's default is 700, 10, 10): a
#: kernel's young objects are collected after 10,000 allocations instead of 700, and the full
#: collections, which walk every object a notebook has made, run a tenth as often.  It changes no
#: output (nbval would say so), and saved about 3% of the notebooks' time under nbval (serial runs: 88
#: and 90 s against 94 and 92 s); the book's build saves more (``_ext/build_speed.py``).
GC_THRESHOLD = (10_000, 20, 100)

#: The environment variables that are read when the interpreter starts or a module is imported (the
#: child takes the client's whole environment, so a variable read later is the client's anyway): any
#: difference in these from the server's environment, set or unset, sends the client to a fresh
#: kernel.  (``KMP_*``, which scikit-learn sets on import in the test processes, is read by Intel's
#: OpenMP runtime, which this stack does not load; ``OLKIT_KERNEL_SERVER*`` and ``OLKIT_BOOK_BUILD``
#: are read by no kernel.)
IMPORT_TIME = ("PYTHON", "OLKIT_", "NPY_", "NUMPY_", "OPENBLAS_", "GOTO", "OMP_", "MKL_", "MPL",
               "MATPLOTLIB", "SCIPY_", "LD_", "LANG", "LC_", "TZ", "HOME", "XDG_", "IPYTHON", "JUPYTER_PLATFORM")
NOT_IMPORT_TIME = ("OLKIT_KERNEL_SERVER", "OLKIT_BOOK_BUILD")

#: The environment variable that names the server's socket (set by dev.py for nbval's pytest).
SOCKET_ENV = "OLKIT_KERNEL_SERVER"

#: While the server imports, the file ``SOCKET + STARTING`` holds its pid (clients wait for it).
STARTING = ".starting"

#: The kernel's name for nbval (``--nbval-kernel-name``).
KERNEL_NAME = "olkit-forked"

_INLINE = "module://matplotlib_inline.backend_inline"

#: IPython's settings for kernels that draw no figure: a figure cell still shows its text form
#: ("<Figure size 640x480 with 1 Axes>", which nbval compares) but no PNG, which nbval does not compare
#: and which the book takes from the stored outputs.  Drawing is most of a figure cell's time.
NO_FIGURES = "c.InlineBackend.figure_formats = set()\nc.HistoryManager.hist_file = ':memory:'\n"


def _write_if_changed(path, text: str) -> None:
    """Write ``text`` to ``path`` (made whole, then renamed: parallel test processes never read half a
    file), unless it already holds it."""
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}")
        partial.write_text(text)
        os.replace(partial, path)


def no_figures_ipython_dir(cache) -> str:
    """An IPYTHONDIR under the folder ``cache`` whose kernels draw no figure (:data:`NO_FIGURES`)."""
    from pathlib import Path

    home = Path(cache) / "ipython-nofigures"
    _write_if_changed(home / "profile_default" / "ipython_kernel_config.py", NO_FIGURES)
    return str(home)


def _relevant(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(IMPORT_TIME) and not k.startswith(NOT_IMPORT_TIME)}


def kernel_spec(folder, python: str = sys.executable) -> str:
    """Write the kernel spec ``folder/kernels/olkit-forked/kernel.json`` for the interpreter ``python``
    (put ``folder`` on JUPYTER_PATH) and return the kernel's name."""
    from pathlib import Path

    spec = Path(folder) / "kernels" / KERNEL_NAME / "kernel.json"
    text = json.dumps({
        # this file as a script, without site (the client needs only the standard library)
        "argv": [str(python), "-S", os.path.abspath(__file__), "connect", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel, forked from a warm process)",
        "language": "python",
        "interrupt_mode": "signal",
        "metadata": {"debugger": False},
    }, indent=1)
    _write_if_changed(spec, text)
    return KERNEL_NAME


# ---------------------------------------------------------------------------------------------- client


def _fresh_kernel(argv: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])


def _connect(sock: socket.socket, path: str) -> None:
    """Connect to the server at ``path``, waiting while it is still importing (its pid is in the file
    ``path + '.starting'`` until it listens); OSError if there is no server."""
    import time

    while True:
        try:
            sock.connect(path)
            return
        except (FileNotFoundError, ConnectionRefusedError):
            try:
                with open(path + STARTING) as f:
                    os.kill(int(f.read()), 0)  # the server is alive, and not yet listening
            except (OSError, ValueError):
                raise ConnectionRefusedError(f"no kernel server at {path}") from None
            time.sleep(0.02)


def connect(argv: list[str]) -> None:
    """The client (the kernel spec's command): a forked kernel on ``argv`` (``-f CONNECTION_FILE``),
    or an ordinary one."""
    path = os.environ.get(SOCKET_ENV)
    if not path or not hasattr(os, "fork"):
        _fresh_kernel(argv)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        _connect(sock, path)
        request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "python": sys.executable}
        socket.send_fds(sock, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
        answer = json.loads(sock.makefile("rb").readline() or b"{}")
    except OSError:
        answer = {}
    if "pid" not in answer:
        sock.close()
        _fresh_kernel(argv)
    child = answer["pid"]

    def forward(signum, _frame):
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    reply = sock.makefile("rb").readline()  # the child's exit status, when it ends
    sys.exit(int(json.loads(reply)["code"]) if reply else 1)


# ---------------------------------------------------------------------------------------------- server


def serve(path: str) -> None:
    """The server: import :data:`PRELOAD`, then fork a kernel for each client of the socket ``path``."""
    import importlib
    import selectors

    mine = _relevant(dict(os.environ))  # before MPLBACKEND: the kernel sets it when it is unset
    os.environ.setdefault("MPLBACKEND", _INLINE)  # what ipykernel sets; matplotlib reads it at import
    # debugpy (imported by ipykernel.debugger) warns on stderr about frozen modules when it is imported;
    # the kernels import nothing of it again, and the server's stderr is the terminal
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    for name in PRELOAD:
        importlib.import_module(name)
    import gc
    import threading

    gc.collect()
    gc.freeze()  # the imported modules: permanent, not walked by the kernels' collections
    gc.set_threshold(*GC_THRESHOLD)  # the kernels inherit it (see GC_THRESHOLD)
    if threading.active_count() != 1:  # fork copies only this thread
        sys.exit(f"tools.kernels: {threading.active_count()} threads after the imports; cannot fork")
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(16)
    try:
        os.unlink(path + STARTING)
    except FileNotFoundError:
        pass
    sel = selectors.DefaultSelector()
    sel.register(server, selectors.EVENT_READ)
    children: dict[int, socket.socket] = {}  # the child's pid -> its client's connection

    def stop(_signum, _frame):  # the server's end ends the kernels it forked
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.unlink(path)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def forget(conn: socket.socket) -> None:
        try:
            sel.unregister(conn)
        except (KeyError, ValueError):
            pass

    print("ready", flush=True)
    while True:
        for key, _ in sel.select(timeout=0.05):
            if key.fileobj is server:
                conn, _ = server.accept()
                pid = _start(conn, server, children, mine)
                if pid:
                    children[pid] = conn
                    sel.register(conn, selectors.EVENT_READ, pid)
                else:
                    conn.close()
            else:  # a client closed its end (it was killed): its kernel goes with it
                try:
                    os.kill(key.data, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                forget(key.fileobj)
        while children:  # reap the kernels that ended, and tell their clients
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            conn = children.pop(pid, None)
            if conn is not None:
                forget(conn)
                try:
                    conn.sendall(json.dumps({"code": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
                except OSError:
                    pass
                conn.close()


def _start(conn: socket.socket, server: socket.socket, children: dict, mine: dict) -> int:
    """Read a client's request from ``conn`` and fork its kernel; the child's pid, or 0 (refused: the
    client starts a fresh kernel)."""
    msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
    data = msg
    while not data.endswith(b"\n"):
        more = conn.recv(1 << 20)
        if not more:
            break
        data += more
    request = json.loads(data or b"{}")
    theirs = _relevant(request.get("env", {}))
    if len(fds) != 3 or request.get("python") != sys.executable or theirs != mine:
        for fd in fds:
            os.close(fd)
        differ = sorted(k for k in set(theirs) | set(mine) if theirs.get(k) != mine.get(k))
        print(f"tools.kernels: refused ({request.get('python')}; {len(fds)} streams; environment "
              f"differs in {differ}): the client starts a fresh kernel", file=sys.stderr, flush=True)
        return 0
    pid = os.fork()
    if pid:
        for fd in fds:
            os.close(fd)
        conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        return pid
    # the child: become the client's kernel
    try:
        server.close()
        for other in children.values():
            other.close()
        conn.close()
        for fd, std in zip(fds, (0, 1, 2)):
            os.dup2(fd, std)
            os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        from ipykernel.kernelapp import IPKernelApp

        sys.argv = [sys.executable, *request["argv"]]
        IPKernelApp.launch_instance(argv=request["argv"])
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - the child must never return into the server's loop
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2])
    elif sys.argv[1:2] == ["connect"]:
        connect(sys.argv[2:])
    else:
        sys.exit("usage: python -m tools.kernels serve SOCKET | connect -f CONNECTION_FILE")
