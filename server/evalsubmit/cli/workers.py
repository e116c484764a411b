"""``evalsubmit check``'s worker processes: files are handed out while the relevance scan is
still finding them, in batches that shrink as the work runs out.

* The pool starts as soon as there is enough work for it (the scan of a large tree takes a
  tenth of a second or more; the workers analyse what it has found meanwhile), once the main
  process has analysed the first file: forked workers inherit what that analysis built.
* At most :data:`IN_FLIGHT_PER_WORKER` batches per worker are handed out at once; the rest wait
  in the main process, so the batch sizes can still follow what is left. A batch is a share
  of what waits (guided scheduling): large while much is left (fewer round trips), one file at
  the end (no worker idles while another finishes a long batch).
* The main process is one of the processes asked for: ``--jobs N`` forks ``N - 1`` workers, and
  the main process, once the scan is over, analyses what waits too, one file at a time. A
  forked worker's analyses cost more than the same in the main process (its first touch of
  each inherited page copies it), and a worker more than the cores meant three processes on
  two cores while the scan ran.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

IN_FLIGHT_PER_WORKER = 2
"""Batches handed to the pool per worker at once: one running, one waiting in its queue."""
MAX_BATCH = 16
"""Files in one batch at most (more saves nothing: a batch costs well under a file's analysis)."""


def batch_size(waiting: int, workers: int) -> int:
    """A share of the files waiting: each in-flight slot gets a part, at least one file."""
    share = -(-waiting // (workers * IN_FLIGHT_PER_WORKER))
    return max(1, min(MAX_BATCH, share))


def in_workers(
    first: list[Item],
    rest: Iterable[Item],
    processes: int,
    task: Callable[[list[Item]], list[Result]],
) -> Iterator[Result]:
    """``task``'s results for every item of ``first`` then ``rest`` (in no particular order),
    run by ``processes`` processes (at least 2): ``processes - 1`` forked workers, and this one
    once it has read ``rest`` (the relevance scan), one item at a time. ``task`` must be
    picklable (a module-level function, or a ``functools.partial`` of one)."""
    waiting: deque[Item] = deque(first)
    running: set[Future[list[Result]]] = set()
    forked = max(1, processes - 1)
    limit = forked * IN_FLIGHT_PER_WORKER
    with ProcessPoolExecutor(forked) as pool:

        def hand_out() -> None:
            while waiting and len(running) < limit:
                size = batch_size(len(waiting), processes)
                batch = [waiting.popleft() for _ in range(min(size, len(waiting)))]
                running.add(pool.submit(task, batch))

        def finished() -> Iterator[Result]:
            done = [future for future in running if future.done()]
            for future in done:
                running.discard(future)
                yield from future.result()

        hand_out()
        for item in rest:
            waiting.append(item)
            yield from finished()
            hand_out()
        hand_out()
        while waiting:  # this process's share: no core idles while the workers finish theirs
            yield from task([waiting.popleft()])
            yield from finished()
            hand_out()
        while running:
            wait(running, return_when=FIRST_COMPLETED)
            yield from finished()
