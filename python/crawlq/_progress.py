"""Progress of a long call: ``progress=True`` draws a line on stderr, rewritten in place, as the command
line does on a terminal; ``progress=callable`` receives each report instead.

A report is a dict: ``step`` (what runs now, e.g. "the stationary solve"), ``done`` and ``total`` (the
count of replications done, ``total`` None while unknown) and ``seconds`` since the call began. The
callback runs on the calling thread between the engine's steps; an exception it raises stops the work
and propagates.
"""
from __future__ import annotations

import sys
from typing import Any, Callable


class TextProgress:
    """The command line's progress line, in a notebook or a terminal: the step, the count of the total,
    the time so far and, with a known total, the time left."""

    def __init__(self, what: str, stream: Any = None) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.width = 0

    def __call__(self, report: dict) -> None:
        line = f"crawlq: {self.what}: {report['step']}"
        done, total, seconds = report["done"], report["total"], report["seconds"]
        if done:
            line += f", {done:g} of {total:g} done" if total else f", {done:g} done"
        line += f", {seconds:.0f} s so far"
        if total and 0 < done < total:
            line += f", about {seconds * (total - done) / done:.0f} s left"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(line))

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def reporter(progress: Any, what: str) -> Callable[[dict], None] | None:
    """What ``progress=`` asks for: None (nothing), True (a :class:`TextProgress`), or a callable."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return TextProgress(what)
    if callable(progress):
        return progress
    from . import _crawlq

    raise _crawlq.InputError(f"progress: {progress!r}: give True (a line on stderr), a function of one "
                             "report, or None")


def run_with(progress: Any, what: str, call: Callable[[Callable[[dict], None] | None], Any]) -> Any:
    """``call(callback)``, the text line cleared after it whatever happens."""
    callback = reporter(progress, what)
    try:
        return call(callback)
    finally:
        if isinstance(callback, TextProgress):
            callback.close()
