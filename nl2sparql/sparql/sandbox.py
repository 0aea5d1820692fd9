"""Sandboxed worker processes for Oxigraph: no network, bounded memory, gone with their parent.

Oxigraph cannot cancel a query, has no timeout on its SERVICE client and
aborts the process when an allocation fails. So everything that hands a
query text to Oxigraph (the embedded store, and the parse check that runs
before a query goes to a remote endpoint) does it in a worker process from
this module. Each worker is confined as soon as it starts:

* **no network**: a seccomp filter makes ``socket()`` fail with ``EPERM`` for
  every address family but ``AF_UNIX`` (and refuses ``io_uring_setup``, which
  could open sockets behind seccomp's back); sockets and pipes inherited from
  the parent (other workers' pipes, open HTTP connections, the stdin of a
  process the parent drives, which must see its end when the parent closes
  it) are let go (their numbers then hold ``/dev/null``). A SERVICE clause
  that slipped past the checks cannot reach any host;
* **bounded memory**: ``RLIMIT_AS`` caps the address space at what the
  worker holds after start-up plus :func:`memory_cap` (``NL2SPARQL_WORKER_MEMORY``);
  an allocation past it ends the worker, which the caller reports in one line;
* **dies with its parent**: ``PR_SET_PDEATHSIG`` (SIGKILL), set from a
  long-lived spawner thread since the signal follows the *thread* that
  forked; the worker also closes the parent's end of its pipe, and a
  watchdog thread exits when the parent pid changes;
* its **stderr** goes to a private file, read back only to tell an
  out-of-memory abort from another crash (no Rust backtrace on the console).

:class:`WorkerPool` runs ``handle(state, message)`` in up to ``size``
workers (``state = init()`` once per worker) under a deadline, killing and
replacing a worker that overruns it.
"""

from __future__ import annotations

import ctypes
import faulthandler
import multiprocessing as mp
import os
import platform
import queue
import resource
import signal
import stat
import struct
import tempfile
import threading
import time
from typing import Any, Callable

from ..errors import ConfigError, QueryError, QueryTimeout, ResourceLimit

_MP = mp.get_context("fork")

GIB = 1 << 30
#: Hard ceiling for one wait on a worker (``poll`` overflows beyond it).
MAX_WAIT = 7 * 24 * 3600.0

# -- memory cap ----------------------------------------------------------------------------


def _total_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 8 * GIB


def parse_size(text: str) -> int:
    """Bytes from ``4G``, ``512M``, ``2.5GB`` or a plain byte count; :class:`ConfigError` otherwise."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": GIB, "T": 1 << 40}
    raw = str(text).strip().upper().removesuffix("B").removesuffix("I")
    number, unit = raw, ""
    if raw and raw[-1] in units:
        number, unit = raw[:-1], raw[-1]
    try:
        value = float(number)
    except ValueError:
        value = float("nan")
    if not (value > 0) or value == float("inf"):
        raise ConfigError(f"worker memory cap {text!r} is not a size: use e.g. 4G or 512M "
                          "(NL2SPARQL_WORKER_MEMORY)")
    size = int(value * units[unit])
    if size < 64 << 20:
        raise ConfigError(f"worker memory cap {text!r} is below 64M: no query could run")
    return size


def memory_cap() -> int:
    """Bytes a worker may allocate beyond its start-up size: ``NL2SPARQL_WORKER_MEMORY``, else min(4 GiB, RAM/2)."""
    env = os.environ.get("NL2SPARQL_WORKER_MEMORY")
    if env:
        return parse_size(env)
    return max(256 << 20, min(4 * GIB, _total_memory() // 2))


def format_size(n: int) -> str:
    """``4 GiB`` / ``512 MiB``."""
    return f"{n / GIB:g} GiB" if n >= GIB else f"{n / (1 << 20):.0f} MiB"


# -- confinement (runs in the worker) ------------------------------------------------------

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_SECCOMP_RET_ALLOW = 0x7FFF0000
_SECCOMP_RET_ERRNO = 0x00050000
_EPERM = 1
_AF_UNIX = 1
# (audit arch, socket, io_uring_setup) per machine; other machines run without the filter
_ARCHES = {"x86_64": (0xC000003E, 41, 425), "aarch64": (0xC00000B7, 198, 425)}
# classic BPF opcodes
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_RET_K = 0x06


def _bpf(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def seccomp_program(machine: str | None = None) -> bytes | None:
    """The BPF filter refusing non-``AF_UNIX`` sockets for ``machine`` (None when the machine is unknown).

    ``seccomp_data`` is ``{int nr; u32 arch; u64 ip; u64 args[6]}``: the
    architecture is at offset 4, ``args[0]``'s low word at 16 (little-endian).
    A foreign architecture (e.g. 32-bit syscalls on x86-64) and the x32 ABI
    get EPERM for everything: this process never makes such calls.
    """
    arch = _ARCHES.get(machine or platform.machine())
    if arch is None:
        return None
    audit, sys_socket, sys_io_uring = arch
    deny = _SECCOMP_RET_ERRNO | _EPERM
    prog = [
        _bpf(_LD_W_ABS, 0, 0, 4),                 # 0: A = arch
        _bpf(_JEQ_K, 1, 0, audit),                # 1: native → 3
        _bpf(_RET_K, 0, 0, deny),                 # 2: foreign arch: refuse
        _bpf(_LD_W_ABS, 0, 0, 0),                 # 3: A = syscall nr
        _bpf(_JGE_K, 0, 1, 0x40000000),           # 4: x32 ABI → 5, else 6
        _bpf(_RET_K, 0, 0, deny),                 # 5
        _bpf(_JEQ_K, 0, 1, sys_io_uring),         # 6: io_uring_setup → 7
        _bpf(_RET_K, 0, 0, deny),                 # 7
        _bpf(_JEQ_K, 1, 0, sys_socket),           # 8: socket → 10
        _bpf(_RET_K, 0, 0, _SECCOMP_RET_ALLOW),   # 9
        _bpf(_LD_W_ABS, 0, 0, 16),                # 10: A = domain
        _bpf(_JEQ_K, 0, 1, _AF_UNIX),             # 11: AF_UNIX → 12, else 13
        _bpf(_RET_K, 0, 0, _SECCOMP_RET_ALLOW),   # 12
        _bpf(_RET_K, 0, 0, deny),                 # 13
    ]
    return b"".join(prog)


def _prctl(*args: int) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return libc.prctl(*args, *([0] * (5 - len(args))))


def forbid_network() -> bool:
    """Install the seccomp filter in this process (irreversible); False when the kernel or machine cannot."""
    program = seccomp_program()
    if program is None:
        return False
    buf = ctypes.create_string_buffer(program, len(program))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    if _prctl(_PR_SET_NO_NEW_PRIVS, 1) != 0:
        return False
    return _prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fprog)) == 0


def _vm_size() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _open_pipes() -> frozenset[int]:
    """The pipe descriptors this process holds now."""
    pipes = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            if stat.S_ISFIFO(os.fstat(int(name)).st_mode):
                pipes.add(int(name))
        except OSError:
            pass
    return frozenset(pipes)


def _release_inherited(keep: set[int], pipes: frozenset[int]) -> None:
    """Let go of sockets inherited from the parent (other workers' pipes, network connections) and of the
    parent's ``pipes`` (those multiprocessing opens for this worker came later and stay).

    Each such descriptor number gets ``/dev/null`` instead of being closed: Python objects copied from the
    parent (a socket, a pipe's file object, left in a reference cycle) still own those numbers, and the
    garbage collector may close them here at any time. A closed number would be reused by the files the
    store opens next, and that late close would then take an index file away from a running query
    ("Bad file descriptor").
    """
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for name in os.listdir("/proc/self/fd"):
            fd = int(name)
            if fd in keep or fd <= 2 or fd == null:
                continue
            try:
                mode = os.fstat(fd).st_mode
                if stat.S_ISSOCK(mode) or (fd in pipes and stat.S_ISFIFO(mode)):
                    os.dup2(null, fd)
            except OSError:
                pass
    finally:
        os.close(null)


def _watch_parent(parent: int) -> None:
    while True:
        threading.Event().wait(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main(conn, parent_end, parent: int, stderr_fd: int, pipes: frozenset[int], init: Callable[[], Any],
                 handle: Callable[[Any, Any], Any], cap: int) -> None:
    # the parent's handlers are not the worker's: a server's (uvicorn's SIGTERM handler only sets a flag) would
    # leave the worker running when the parent's exit terminates it, and that exit would wait for it forever
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent stops the workers
    # a crash is reported by the parent in one line; a fault handler inherited from it (python -X faulthandler,
    # pytest) would also dump every thread onto the parent's stderr
    faulthandler.disable()
    parent_end.close()
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)
    os.dup2(stderr_fd, 2)
    _release_inherited({conn.fileno(), stderr_fd}, pipes)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    confined = forbid_network()
    try:
        state = init()
    except Exception as exc:  # noqa: BLE001 - reported to the caller
        conn.send(("init", f"{type(exc).__name__}: {' '.join(str(exc).split())}"))
        return
    limit = _vm_size() + cap
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    conn.send(("ready", confined))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            reply = handle(state, msg)
        except MemoryError:
            reply = ("memory", None)
        except Exception as exc:  # noqa: BLE001 - reported to the caller
            reply = ("error", f"{type(exc).__name__}: {' '.join(str(exc).split())}")
        conn.send(reply)


# -- spawning (runs in the parent) ---------------------------------------------------------

_spawn_requests: "queue.Queue[tuple[Callable[[], Any], queue.Queue]]" = queue.Queue()
_spawner_lock = threading.Lock()
_spawner: threading.Thread | None = None


def _spawn_loop() -> None:
    while True:
        start, done = _spawn_requests.get()
        try:
            done.put((True, start()))
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller
            done.put((False, exc))


def _in_spawner(start: Callable[[], Any]) -> Any:
    """Run ``start`` (which forks) in the long-lived spawner thread, so PDEATHSIG follows the process."""
    global _spawner
    with _spawner_lock:
        if _spawner is None or not _spawner.is_alive() or _spawner_pid != os.getpid():
            _reset_spawner()
    done: queue.Queue = queue.Queue()
    _spawn_requests.put((start, done))
    ok, value = done.get()
    if not ok:
        raise value
    return value


_spawner_pid = -1


def _reset_spawner() -> None:
    global _spawner, _spawner_pid, _spawn_requests
    _spawn_requests = queue.Queue()
    _spawner = threading.Thread(target=_spawn_loop, name="nl2sparql-spawner", daemon=True)
    _spawner.start()
    _spawner_pid = os.getpid()


class WorkerDied(QueryError):
    """A worker process ended while it was answering (crash or memory cap)."""


class Worker:
    """One confined worker process and the parent's end of its pipe."""

    def __init__(self, init: Callable[[], Any], handle: Callable[[Any, Any], Any], cap: int):
        self.cap = cap
        self.conn, child = _MP.Pipe()
        self._stderr = tempfile.TemporaryFile(prefix="nl2sparql-worker-")
        self.process = _MP.Process(target=_worker_main, daemon=True,
                                   args=(child, self.conn, os.getpid(), self._stderr.fileno(), _open_pipes(), init,
                                         handle, cap))
        _in_spawner(self.process.start)
        child.close()
        self.confined = None
        #: queries answered so far (a worker that fails after some gets one retry on a fresh one)
        self.answered = 0

    def wait_ready(self, timeout: float) -> None:
        """Wait for the start-up report; raise when the worker could not start."""
        if not self.conn.poll(timeout):
            raise QueryTimeout(f"the query engine process did not start within {timeout:g} s")
        status, payload = self._recv()
        if status == "init":
            raise QueryError(f"the query engine process could not start: {payload}")
        self.confined = payload

    def _recv(self):
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            raise self.death() from None

    def call(self, message: Any, timeout: float) -> Any:
        """Send ``message`` and wait up to ``timeout`` s for the reply (``None`` on timeout)."""
        try:
            self.conn.send(message)
            ready = self.conn.poll(min(timeout, MAX_WAIT))
        except (OSError, BrokenPipeError):
            raise self.death() from None
        if not ready:
            return None
        reply = self._recv()
        if isinstance(reply, tuple) and reply and reply[0] == "memory":
            raise self.memory_error()
        return reply

    def memory_error(self) -> ResourceLimit:
        """The one-line error for a worker that ran past its memory cap."""
        return ResourceLimit(f"the query needed more than the {format_size(self.cap)} memory cap of a query "
                             "worker and was stopped (make it more selective, add LIMIT, or raise "
                             "NL2SPARQL_WORKER_MEMORY)")

    def death(self) -> QueryError:
        """Why the worker died: the memory cap (an allocation abort) or a crash."""
        self.process.join(timeout=5)
        code = self.process.exitcode
        try:
            self._stderr.seek(0)
            tail = self._stderr.read(1 << 16).decode("utf-8", "replace")
        except (OSError, ValueError):
            tail = ""
        if "memory allocation" in tail or "MemoryError" in tail or "out of memory" in tail.lower():
            return self.memory_error()
        how = f"signal {-code}" if code is not None and code < 0 else f"status {code}"
        return WorkerDied(f"the query engine process died while running the query ({how}); it was "
                          "restarted (a query nested too deeply or a crash in the engine)")

    def kill(self) -> None:
        """End the process now."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()
        self._stderr.close()

    def stop(self) -> None:
        """Ask the process to exit, then make sure it did."""
        try:
            self.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        self.process.join(timeout=2)
        self.kill()


class WorkerPool:
    """Up to ``size`` confined workers running ``handle(init(), message)``; :meth:`call` is thread-safe.

    Workers start on first use. The idle queue holds workers and free slots
    (``None``): taking a free slot starts a worker, retiring one frees its slot.
    """

    def __init__(self, init: Callable[[], Any], handle: Callable[[Any, Any], Any], size: int = 1,
                 memory: int | None = None, start_timeout: float = 120.0):
        self._init = init
        self._handle = handle
        self.memory = memory_cap() if memory is None else memory
        self._start_timeout = start_timeout
        self._idle: "queue.LifoQueue[Worker | None]" = queue.LifoQueue()
        for _ in range(max(1, int(size))):
            self._idle.put(None)
        self._lock = threading.Lock()
        self._all: list[Worker] = []
        self._owner_pid = os.getpid()

    def _acquire(self) -> Worker:
        worker = self._idle.get()
        if worker is not None:
            return worker
        try:
            worker = Worker(self._init, self._handle, self.memory)
        except BaseException:
            self._idle.put(None)
            raise
        with self._lock:
            self._all.append(worker)
        try:
            worker.wait_ready(self._start_timeout)
        except BaseException:
            self._retire(worker)
            raise
        return worker

    def _retire(self, worker: Worker) -> None:
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)
        self._idle.put(None)

    def call(self, message: Any, timeout: float, on_timeout: Callable[[], Exception]) -> Any:
        """Run ``message`` in a worker; a worker past ``timeout`` is killed and ``on_timeout()`` raised.

        A worker that dies or runs past its memory cap after answering earlier queries may have grown
        with them (caches, fragmentation), so the message gets one more try on a fresh worker, within
        what is left of ``timeout``; a fresh worker's failure is the query's.
        """
        deadline = time.monotonic() + timeout
        while True:
            worker = self._acquire()
            try:
                reply = worker.call(message, max(0.0, deadline - time.monotonic()))
            except (ResourceLimit, WorkerDied):
                self._retire(worker)
                if worker.answered == 0 or time.monotonic() >= deadline:
                    raise
                continue
            except BaseException:  # interrupted while it may be mid-query
                self._retire(worker)
                raise
            if reply is None:
                self._retire(worker)
                raise on_timeout()
            worker.answered += 1
            self._idle.put(worker)
            return reply

    def close(self) -> None:
        """Stop every worker."""
        if os.getpid() != self._owner_pid:
            return
        with self._lock:
            workers, self._all = self._all, []
        for w in workers:
            w.stop()
