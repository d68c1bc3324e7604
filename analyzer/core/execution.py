"""One chunked execution model for every enumeration: local processes or a Dask cluster.

A chunk is a module-level function and its small arguments; it returns integer arrays placed at offsets of named
totals (`Part`), merged exactly, so the result does not depend on how the work was split or where it ran.  In this
process a chunk may add straight into the totals (`Chunk.in_place`).  Data every chunk reads goes once per worker
(shared memory, or scattered to Dask).  A Dask chunk lost with its worker is rerun, lost shared data scattered
again, and a stalled stage cancelled with a one-line error; Ctrl-C stops local workers at once and quietly.
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context, shared_memory
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

import numpy as np

from analyzer.core.errors import InputError, InvariantError


@dataclass(frozen=True)
class Chunk:
    """function(shared, *args) -> list of Part; `shared` is the stage's read-only arrays (or {}).  In place:
    function(shared, out, *args) -> None adds into `out` (name -> whole total) itself, within its dtypes' bounds;
    only `in_process` executors accept it."""

    function: Callable
    args: tuple = ()
    in_place: bool = False


@dataclass
class Part:
    """A piece of a named total: `values` added at `offset` along the first axis (a whole total: no copy)."""

    name: str
    values: np.ndarray
    offset: int = 0


@dataclass
class Totals:
    """The merged results of a stage: named integer arrays, zero where no chunk wrote."""

    shapes: dict                        # name -> (shape, dtype)
    arrays: dict = field(default_factory=dict)

    def add(self, parts: list[Part]) -> None:
        for part in parts:
            shape, dtype = self.shapes[part.name]
            if part.name not in self.arrays and part.offset == 0 and part.values.shape == tuple(shape) \
                    and part.values.dtype == dtype and part.values.flags.writeable:
                self.arrays[part.name] = part.values            # the first part is the whole total: no copy
                continue
            total = self[part.name]
            view = total[part.offset:part.offset + len(part.values)]
            if np.issubdtype(total.dtype, np.unsignedinteger) and part.values.size:
                # unsigned totals: check the exact sum fits before adding (no silent wraparound)
                if int(view.max(initial=0)) + int(part.values.max(initial=0)) > np.iinfo(total.dtype).max:
                    raise OverflowError(f"total {part.name!r} would overflow {total.dtype}")
            view += part.values.astype(total.dtype, copy=False)

    def __getitem__(self, name):
        if name not in self.arrays:
            shape, dtype = self.shapes[name]
            self.arrays[name] = np.zeros(shape, dtype=dtype)
        return self.arrays[name]


def chunk_ranges(n: int, pieces: int) -> list[tuple[int, int]]:
    """Split range(n) into at most `pieces` contiguous ranges of near-equal size."""
    pieces = max(1, min(n, pieces))
    bounds = [round(i * n / pieces) for i in range(pieces + 1)]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


# --- executors ---------------------------------------------------------------------------

class Executor:
    """Runs the chunks of a stage and merges their parts into Totals."""

    workers = 1
    threads_per_chunk = 1
    in_process = False           # chunks run in this process: in-place chunks are accepted

    def run(self, chunks: list[Chunk], totals: Totals, shared: dict | None = None, progress=None,
            label: str = "chunks") -> Totals:
        raise NotImplementedError

    def _refuse_in_place(self, chunks: list[Chunk]) -> None:
        if any(chunk.in_place for chunk in chunks):
            raise ValueError(f"{type(self).__name__} runs chunks in other processes: in-place chunks need an "
                             "executor whose chunks run in this process")

    def close(self) -> None:
        pass


class SerialExecutor(Executor):
    """Every chunk in this process, one after the other (kernels may still use `threads`)."""

    in_process = True

    def __init__(self, threads: int = 1):
        self.threads_per_chunk = threads

    def run(self, chunks, totals, shared=None, progress=None, label="chunks"):
        bar = progress(total=len(chunks), desc=label, unit="chunk") if progress else None
        for chunk in chunks:
            if chunk.in_place:                  # it adds into every total (zero where nothing was added yet)
                chunk.function(shared or {}, {name: totals[name] for name in totals.shapes}, *chunk.args)
            else:
                totals.add(chunk.function(shared or {}, *chunk.args))
            bar and bar.update()
        bar and bar.close()
        return totals


# Local processes read the shared arrays and add their parts into the totals through shared memory,
# attached once per process by the pool initializer.
_INPUTS: dict = {}
_OUTPUTS: dict = {}
_BLOCKS: list = []


def _attach(inputs: dict, outputs: dict) -> None:
    # Ctrl-C reaches the whole process group; only the parent acts on it (it terminates the pool)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for target, descriptions in ((_INPUTS, inputs), (_OUTPUTS, outputs)):
        target.clear()
        for name, (block, shape, dtype) in descriptions.items():
            memory = shared_memory.SharedMemory(name=block)
            _BLOCKS.append(memory)
            target[name] = np.ndarray(shape, dtype=dtype, buffer=memory.buf)


def _call(function, args) -> list:
    """Run a chunk in a worker; add its parts into the shared totals; return where they went."""
    placed = []
    for part in function(_INPUTS, *args):
        _OUTPUTS[part.name][part.offset:part.offset + len(part.values)] += part.values
        placed.append((part.name, part.offset, len(part.values)))
    return placed


class _SharedArrays:
    """Arrays copied into (or created in) shared-memory blocks, released on close()."""

    def __init__(self):
        self.blocks, self.descriptions, self.arrays = [], {}, {}

    def put(self, name: str, shape, dtype, source=None) -> None:
        dtype = np.dtype(dtype)
        block = shared_memory.SharedMemory(create=True, size=max(1, int(np.prod(shape)) * dtype.itemsize))
        self.blocks.append(block)
        array = np.ndarray(shape, dtype=dtype, buffer=block.buf)
        if source is not None:                  # a new block is already zero-filled by the system
            array[...] = source
        self.descriptions[name] = (block.name, tuple(shape), dtype.str)
        self.arrays[name] = array

    def close(self) -> None:
        self.arrays.clear()
        for block in self.blocks:
            block.close()
            block.unlink()


class LocalExecutor(Executor):
    """Chunks on `jobs` local processes (a fresh "forkserver" pool per stage, one thread each)."""

    def __init__(self, jobs: int | None = None):
        self.workers = jobs or default_jobs()

    def run(self, chunks, totals, shared=None, progress=None, label="chunks"):
        self._refuse_in_place(chunks)
        if self.workers == 1 or len(chunks) == 1:
            return SerialExecutor().run(chunks, totals, shared, progress, label)
        inputs, outputs = _SharedArrays(), _SharedArrays()
        bar = progress(total=len(chunks), desc=label, unit="chunk") if progress else None
        try:
            for name, array in (shared or {}).items():
                inputs.put(name, np.shape(array), np.asarray(array).dtype, array)
            for name, (shape, dtype) in totals.shapes.items():
                outputs.put(name, shape, dtype)
            context = get_context("forkserver" if sys.platform != "win32" else "spawn")
            placed, pending = [], set()
            with ProcessPoolExecutor(self.workers, mp_context=context, initializer=_attach,
                                     initargs=(inputs.descriptions, outputs.descriptions)) as pool:
                try:
                    with _deferred_signals() as act:      # from before the first chunk starts on a worker
                        pending = {pool.submit(_call, chunk.function, chunk.args) for chunk in chunks}
                        while pending:
                            done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                            act()
                            for future in done:
                                placed += future.result()
                                bar and bar.update()
                except BaseException:                    # abandoned: stop the workers now
                    for future in pending:
                        future.cancel()
                    _terminate_workers(pool)
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
            _check_disjoint(placed)
            totals.add([Part(name, array.copy()) for name, array in outputs.arrays.items()])
        finally:
            bar and bar.close()
            inputs.close()
            outputs.close()
        return totals


@contextlib.contextmanager
def _deferred_signals():
    """Ctrl-C and SIGTERM noted while this process waits on its pool, and acted on by the `act()` yielded,
    where no future's lock is held (raised inside `wait`, an interrupt can leave one taken and shutdown hang)."""
    previous, received = {}, []

    def restore():
        for number, handler in previous.items():         # restoring twice does no harm
            signal.signal(number, handler)

    def act():
        """Run the earlier handler of the first signal received (it raises), if one came."""
        if received:
            number, frame = received[0]
            received.clear()
            restore()
            if callable(previous[number]):
                previous[number](number, frame)
            elif previous[number] == signal.SIG_DFL:
                signal.raise_signal(number)

    with contextlib.suppress(ValueError):                 # not the main thread
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, lambda n, frame: received.append((n, frame)))
    try:
        yield act
    finally:
        restore()


def _terminate_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate a process pool's workers (`terminate_workers` from Python 3.14, else `_processes`)."""
    if hasattr(pool, "terminate_workers"):
        pool.terminate_workers()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()


class ClusterError(InputError):
    """A Dask cluster that cannot do the work (unreachable, or no progress): the user fixes it."""


class DaskExecutor(Executor):
    """Chunks on an existing Dask distributed cluster.

    Shared arrays are scattered to every worker under fresh keys; when every holder has died they
    are scattered again and every chunk not yet merged resubmitted, as is a chunk whose result was
    lost.  No chunk completing for `stall_limit` seconds cancels the stage with a ClusterError.
    """

    def __init__(self, address: str, retries: int = 3, stall_limit: float = 600.0, connect_timeout: float = 20.0):
        address = scheduler_address(address)           # InputError before any connection
        try:
            from distributed import Client
        except ImportError:
            raise InputError("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
        try:
            self.client = Client(address, timeout=connect_timeout)
        except OSError as error:                       # includes TimeoutError
            raise ClusterError(f"cannot reach the Dask scheduler at {address} within {connect_timeout:g} s: "
                               f"{error}") from None
        self.address = address
        self.retries = retries                         # for exceptions a chunk raises
        self.stall_limit = stall_limit
        self.poll = min(1.0, stall_limit / 10)         # how often the stage looks for lost data and stalls
        self.workers = max(1, len(self.client.scheduler_info()["workers"]))
        self.reruns = self.handovers = 0               # chunks submitted again after a loss; shared data scatters

    def run(self, chunks, totals, shared=None, progress=None, label="chunks"):
        self._refuse_in_place(chunks)
        started = time.monotonic()
        handed = self._hand_over(shared, label, started) if shared and chunks else {}
        finished = queue.SimpleQueue()                 # futures, as each completes (done callbacks)
        running = {}                                   # key -> (future, chunk index): not merged yet
        merged = set()

        def submit(indices):
            for index in indices:
                chunk = chunks[index]
                future = self.client.submit(chunk.function, handed, *chunk.args, retries=self.retries, pure=False)
                running[future.key] = (future, index)
                future.add_done_callback(finished.put)

        bar = progress(total=len(chunks), desc=f"{label} (dask)", unit="chunk") if progress else None
        last_progress = time.monotonic()
        try:
            submit(range(len(chunks)))
            while running:
                try:
                    future = finished.get(timeout=self.poll)
                except queue.Empty:
                    future = None
                lost = []
                if future is not None and running.get(future.key, (None,))[0] is future:
                    _, index = running.pop(future.key)
                    parts = self._result(future, label)
                    if parts is None:                  # cancelled, or its result lost with a worker
                        lost.append(index)
                    else:
                        assert index not in merged     # each chunk's parts are added exactly once
                        totals.add(parts)
                        merged.add(index)
                        last_progress = time.monotonic()
                        bar and bar.update()
                if handed and (lost or future is None) and self._shared_lost(handed, checked=bool(lost)):
                    # chunks waiting for the lost copy would be cancelled too: redo them all
                    if running:
                        self.client.cancel([f for f, _ in running.values()])
                    lost += [index for _, index in running.values()]
                    running.clear()
                    handed = self._hand_over(shared, label, last_progress)
                if lost:
                    self.reruns += len(lost)
                    submit(sorted(lost))
                if time.monotonic() - last_progress > self.stall_limit:
                    raise self._stalled(label, len(merged), len(chunks))
        finally:
            bar and bar.close()
            if running:                                # abandoned (an error, Ctrl-C): cancel what is left
                self.client.cancel([f for f, _ in running.values()])
            # release the futures even while a traceback keeps this frame: the cluster forgets them
            running.clear()
            handed = None
        return totals

    def _hand_over(self, shared: dict, label: str, since: float) -> dict:
        """Scatter the stage's shared arrays to every worker, as futures under fresh keys."""
        names = list(shared)
        timeout = max(1.0, self.stall_limit - (time.monotonic() - since))
        try:
            # a list, not the dict: a dict's names would be the keys, the same for every stage and client
            futures = self.client.scatter([shared[name] for name in names], broadcast=True, hash=False,
                                          timeout=timeout)
        except (OSError, ValueError) as error:         # TimeoutError: no worker came within the limit
            raise self._stalled(label, None, None, f"cannot scatter its shared data: {error}") from None
        self.handovers += 1
        return dict(zip(names, futures))

    def _shared_lost(self, handed: dict, checked: bool) -> bool:
        """Whether some shared array has no replica left (the scheduler forgot it)."""
        if any(future.status != "finished" for future in handed.values()):
            return True
        if not checked:
            return False
        try:                                           # a cancelled chunk: ask the scheduler
            holders = self.client.who_has(list(handed.values()))
        except OSError:
            return False
        return any(not holders.get(future.key) for future in handed.values())

    def _result(self, future, label: str):
        """A completed chunk's parts; None if it must be rerun; raises what the chunk raised."""
        if future.status == "cancelled":
            return None
        try:                                           # a chunk that completed is progress: a full limit
            return future.result(timeout=self.stall_limit)    # "error": its exception, or KilledWorker
        except CancelledError:                         # the result went with its worker, then its inputs
            return None
        except TimeoutError:
            raise self._stalled(label, None, None, "a finished chunk's result could not be fetched") from None

    def _stalled(self, label: str, done, total, reason: str = "") -> ClusterError:
        try:
            workers = len(self.client.scheduler_info()["workers"])
        except Exception:                              # the scheduler itself may be gone
            workers = "?"
        progress = f"{done} of {total} chunks merged, " if total is not None else ""
        reason = f"{reason}; " if reason else ""
        return ClusterError(f"the Dask cluster at {self.address} made no progress on {label} for "
                            f"{self.stall_limit:g} s ({progress}{workers} workers connected): {reason}workers "
                            "lost, paused for lack of memory, or none left? The stage was cancelled.")

    def close(self) -> None:
        self.client.close()


def _check_disjoint(placed: list) -> None:
    """Workers add into shared totals concurrently: exact only when no two parts overlap."""
    spans = sorted(placed)                             # (name, offset, length): by total, then offset
    for (name, offset, length), (next_name, start, _) in zip(spans, spans[1:]):
        if name == next_name and start < offset + length:
            raise InvariantError(f"chunks overlap in total {name!r}: parallel adds would not be exact")


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def max_jobs() -> int:
    """The most local processes --jobs may ask for: 4 per core (more only thrash)."""
    return 4 * default_jobs()


SCHEDULER_PROTOCOLS = ("tcp", "tls", "inproc", "ucx", "ws", "wss")    # those dask.distributed speaks


def scheduler_address(text: str) -> str:
    """The address a --scheduler value names: itself (`tcp://host:port` or another Dask protocol) or the
    "address" in a scheduler file; InputError, naming the option, for anything else.

    >>> scheduler_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    """
    if not isinstance(text, str) or not text.strip():
        raise InputError("--scheduler needs an address such as tcp://10.0.0.5:8786 or a scheduler file")
    text = text.strip()
    if "://" not in text:
        path = Path(text)
        if not path.is_file():
            raise InputError(f"--scheduler {text!r} is neither an address such as tcp://10.0.0.5:8786 "
                             "nor an existing scheduler file")
        try:
            address = json.loads(path.read_text())["address"]
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
            raise InputError(f"--scheduler {text}: not a Dask scheduler file (JSON with an \"address\"): "
                             f"{error}") from None
        if not isinstance(address, str) or "://" not in address:
            raise InputError(f"--scheduler {text}: its address {address!r} is not of the form tcp://host:port")
        return scheduler_address(address)
    protocol, rest = text.split("://", 1)
    if protocol not in SCHEDULER_PROTOCOLS:
        raise InputError(f"--scheduler {text!r}: unknown protocol {protocol!r} (use "
                         + ", ".join(f"{p}://" for p in SCHEDULER_PROTOCOLS) + ")")
    if protocol == "inproc":
        if not rest or any(c.isspace() for c in rest):
            raise InputError(f"--scheduler {text!r}: an inproc:// address names a scheduler in this process")
        return text
    try:
        parts = urlsplit(text)
        valid = bool(parts.hostname) and bool(parts.port) and not (parts.path or parts.query or parts.fragment)
    except ValueError:                                 # a port not in 0..65535, a broken [IPv6] host
        valid = False
    if not valid or any(c.isspace() for c in text):
        raise InputError(f"--scheduler {text!r} is not of the form {protocol}://host:port "
                         f"(e.g. {protocol}://10.0.0.5:8786)")
    return text


def make_executor(jobs: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor the command line asks for: a Dask cluster, N local processes, or (default, the fastest and
    smallest on one machine: chunks add in place) this process, every core as kernel threads.  InputError, naming
    the option, for a bad --jobs or --scheduler."""
    if jobs is not None and scheduler is not None:
        raise InputError("--jobs and --scheduler exclude each other: --jobs N runs N local processes, "
                         "--scheduler runs on the Dask cluster's workers")
    if scheduler is not None:
        return DaskExecutor(scheduler)
    if jobs is not None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= max_jobs():
            raise InputError(f"--jobs must be between 1 and {max_jobs()} (4 per core, {default_jobs()} cores "
                             f"here), not {jobs}")
        return LocalExecutor(jobs)
    return SerialExecutor(default_jobs())
