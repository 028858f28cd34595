"""crawlq from Python: the queue between a search engine's crawling robots and its indexer.

The functions and methods mirror the command line: ``crawlq solve FILE --levels 3,3,3,1,1,1 --json``
is ``crawlq.load(FILE).solve(levels=[3, 3, 3, 1, 1, 1])``, and the result's attributes are the
command's JSON keys (``r.cost``, ``r.p_loss``, ``r.level_probabilities`` as a numpy array). Both call
the same engines through the same requests, so they give the same numbers to the last digit.

    >>> import crawlq
    >>> sc = crawlq.load("scenarios/data/paper-example-1.yaml")
    >>> r = sc.solve(thresholds=[-1, 2, 2]); r.cost           # the paper's optimum
    >>> best = sc.optimize(); best.best.thresholds
    >>> s = sc.simulate(replications=8, seed=1); s.p_loss.mean, s.p_loss.half_width

Bad input raises :class:`InputError` (a ``ValueError``) with the message the command line prints.
Long computations release the GIL and raise KeyboardInterrupt within a second of Ctrl-C: simulate,
validate, compare, optimize, the iterative solve and the fits by EM stop their work at once; sweep,
reproduce, refresh and the other steps of a very long solve finish theirs on a thread of their own
and their answer is dropped.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

# OpenMP threads that wait by spinning hold a core another program needs (two threads on a busy
# two-core machine ran 14 times slower than one), and threads that sleep at once make each barrier
# a slow wake-up on a quiet one: a short spin, then sleep. The runtime reads these when the
# extension loads it, so they are set first, unless the user chose either
# (app/runtime_environment.hpp).
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.environ["GOMP_SPINCOUNT"] = "10000"

from . import _crawlq  # noqa: E402
from ._progress import run_with as _run_with
from ._results import Interval, IntervalArray, Result, SolveResult, SweepResult

__all__ = [
    "InputError",
    "Interval",
    "IntervalArray",
    "Result",
    "Scenario",
    "SolveResult",
    "SweepResult",
    "fit_arrivals",
    "fit_obsolescence",
    "fit_service",
    "load",
    "methods",
    "parameters",
    "refresh",
    "reproduce",
    "reproduce_sections",
    "scenarios",
]

#: Bad input: a broken scenario rule, a policy of the wrong shape, a value out of range. A ValueError.
InputError = _crawlq.InputError
#: What a copy of a scenario can change (``Scenario.with_``) and ``sweep`` can vary: ``capacity``,
#: the scales of service, obsolescence and arrivals, and each cost weight (``costs.loss``, ...).
parameters: tuple[str, ...] = tuple(_crawlq.parameters)
#: The version (``0.1.0``); ``version`` adds the git commit it was built from.
__version__: str = _crawlq.version.split()[0]
version: str = _crawlq.version
#: The sections ``reproduce`` knows.
reproduce_sections: tuple[str, ...] = tuple(_crawlq.reproduce_sections)
#: The stationary solvers ``solve`` and ``optimize`` take as ``method`` (``auto`` chooses).
methods: tuple[str, ...] = tuple(_crawlq.methods)


def _threads(threads: Any) -> int:
    """``threads=`` as ``--threads`` takes it: a whole number from 0 (every core) to ``_crawlq.most_threads``."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 0 <= threads <= _crawlq.most_threads:
        raise InputError(f"threads: {threads!r}: give a whole number from 0 (every core) to {_crawlq.most_threads}")
    return int(threads)


def _plain(value: Any) -> Any:
    """numpy values as the JSON a scenario's policy section is written in."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not a policy value")


def _request_value(value: Any) -> Any:
    """A keyword's value as a request document holds it: numpy values and paths as plain Python."""
    if isinstance(value, (np.ndarray, np.generic)):
        return _plain(value)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, dict):
        return {k: _request_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_request_value(v) for v in value]
    if not isinstance(value, (str, bytes)) and hasattr(value, "__iter__"):  # a generator, a range
        return [_request_value(v) for v in value]
    return value


def _document(policy: tuple[str | None, str | None] | None, fields: dict[str, Any]) -> dict[str, Any]:
    """The keywords of a request as its document, with the policy (a section, or a policy file's path)."""
    document = {k: _request_value(v) for k, v in fields.items()}
    if policy is not None:
        text, file = policy
        if text is not None:
            document["policy"] = json.loads(text)
        elif file is not None:
            document["policy"] = file
    return document


_PYTHON_TYPES = {"boolean": "bool", "integer": "int", "number": "float", "string": "str",
                 "numbers": "Sequence[float]", "integers": "Sequence[int]", "policy": "Any"}


def _takes_request(kind: str, positional: Sequence[str] = ()):
    """Gives a method the keywords of the request ``kind`` (``crawlq schema``'s list, which the request
    layer reads the document by): its signature and a line of help for each come from that list, so a
    field added there is a keyword here without an edit."""
    fields = [f for f in _crawlq.request_schema()[kind] if "python" in f["takers"]]

    def decorate(method: Callable) -> Callable:
        import inspect

        own = inspect.signature(method)
        parameters = [p for p in own.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        named = {p.name for p in parameters}
        lines = []
        for f in fields:
            default = tuple(f["default"]) if isinstance(f["default"], list) else f["default"]
            annotation = _PYTHON_TYPES[f["type"]] + (" | None" if f["default"] is None and not f["required"] else "")
            given = "required" if f["required"] else f"default {default!r}"
            choices = f"; one of {', '.join(f['choices'])}" if f["choices"] else ""
            lines.append(f"``{f['python']}`` ({annotation}, {given}): {f['help']}{choices}.")
            if f["python"] not in named:
                parameters.append(inspect.Parameter(f["python"], inspect.Parameter.KEYWORD_ONLY,
                                                    default=default, annotation=annotation))
        method.__signature__ = own.replace(parameters=parameters)
        method.__doc__ = (method.__doc__ or "").rstrip() + "\n\n        Keywords:\n\n" + "".join(
            f"        - {line}\n" for line in lines)
        return method

    return decorate


def _function_policy(function: Callable[[int, int, int], int], description: dict) -> dict:
    """A Python policy ``function(level, arrival_phase, mode) -> robots`` as the policy form it is.

    The function is called once for each level 0..K, arrival phase 0..W-1 and mode 1..N before
    anything runs (so it must not depend on anything else), and the table of its answers becomes a
    level map when only the level matters, a phase-aware table when the arrival phase does too, and a
    memory table (the next mode by the level and the mode in force, taken at each change of level)
    when the mode does: forms both engines run at full speed.
    """
    capacity, phases, modes = description["capacity"], description["arrival_phases"], len(description["modes"])
    table = []
    for level in range(capacity + 1):
        rows = []
        for phase in range(phases):
            row = []
            for mode in range(1, modes + 1):
                robots = function(level, phase, mode)
                if isinstance(robots, bool) or not isinstance(robots, (int, np.integer)) or not 1 <= robots <= modes:
                    raise InputError(f"policy: {getattr(function, '__name__', 'the function')}(level={level}, "
                                     f"arrival_phase={phase}, mode={mode}) returned {robots!r}: give a whole number "
                                     f"of robots from 1 to {modes}")
                row.append(int(robots))
            rows.append(row)
        table.append(rows)
    by_mode = any(len(set(row)) > 1 for rows in table for row in rows)
    by_phase = any(len({tuple(row) for row in rows}) > 1 for rows in table)
    if by_mode and by_phase:
        raise InputError("policy: the function's answer depends on both the arrival phase and the mode in force; "
                         "crawlq runs policies of the level and one of them (phase-aware or memory)")
    if by_mode:
        return {"memory": [rows[0] for rows in table]}
    if by_phase:
        return {"phase-aware": [[row[0] for row in rows] for rows in table]}
    return {"levels": [rows[0][0] for rows in table]}


def _policy_arguments(thresholds: Any, levels: Any, policy: Any,
                      description: dict | None = None) -> tuple[str | None, str | None]:
    """(the text of a ``policy:`` section, a policy file): at most one of the three given."""
    given = [name for name, v in (("thresholds", thresholds), ("levels", levels), ("policy", policy)) if v is not None]
    if len(given) > 1:
        raise InputError(f"policy: give one of thresholds=, levels= and policy=, not {' and '.join(given)}")
    if thresholds is not None:
        return json.dumps({"thresholds": np.asarray(thresholds).tolist()}), None
    if levels is not None:
        return json.dumps({"levels": np.asarray(levels).tolist()}), None
    if policy is None:
        return None, None
    if isinstance(policy, (str, os.PathLike)):
        return None, os.fspath(policy)
    if isinstance(policy, dict):
        return json.dumps(policy, default=_plain), None
    if callable(policy) and description is not None:
        return json.dumps(_function_policy(policy, description)), None
    table = np.asarray(policy)
    if table.ndim == 2:  # robots by level (K + 1 rows) and arrival phase (W columns)
        return json.dumps({"phase-aware": table.tolist()}), None
    raise InputError(
        f"policy: give a policy section as a dict of one of the keys {', '.join(_crawlq.policy_keys)} "
        "(such as {'thresholds': [...]}), a table of robots by level and arrival phase, or a policy file's path"
    )


class Scenario:
    """A scenario file's model, and copies of it with one thing changed.

    Make one with :func:`load`, :meth:`from_dict` or :meth:`from_yaml`. A scenario is immutable:
    ``with_capacity``, ``with_``, ``with_costs`` and ``with_policy`` return changed copies.
    """

    def __init__(self, text: str, name: str, directory: str | os.PathLike = ".",
                 changes: Sequence[tuple[str, float]] = (), policy: tuple[str | None, str | None] = (None, None)):
        if not isinstance(text, str):
            raise TypeError(f"a scenario's text is a str, not {type(text).__name__}")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:  # a lone surrogate: a byte that was not UTF-8, kept by surrogateescape
            raise InputError(f"{name}: character {e.start}: {e.object[e.start]!r} is no character of text") from None
        self._source = _crawlq.Source(text, name, os.fspath(directory), list(changes))
        self._policy = policy
        # Parsed now, so a broken scenario is refused where it is made, not at its first use.
        self._description = _crawlq.describe(self._source)

    @classmethod
    def from_dict(cls, data: dict, name: str = "<dict>", directory: str | os.PathLike = ".") -> "Scenario":
        """A scenario from its YAML's JSON form (``to_dict()`` of another, or the lab's)."""
        return cls(json.dumps(data, default=_plain), name, directory)

    @classmethod
    def from_yaml(cls, text: str, name: str = "<yaml>", directory: str | os.PathLike = ".") -> "Scenario":
        """A scenario from the text of a scenario file (YAML or JSON)."""
        return cls(text, name, directory)

    # -- what it is ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The label messages give it: the file's path, or the name given."""
        return self._source.label

    @property
    def capacity(self) -> int:
        return int(self._description["capacity"])

    @property
    def changes(self) -> list[tuple[str, float]]:
        """The changes made to the file's model, in order (``with_`` and friends)."""
        return list(self._source.changes)

    def to_dict(self) -> dict:
        """The scenario as written, in its YAML's JSON form (without ``changes``, which apply to the model)."""
        return _crawlq.scenario_json(self._source.text, self._source.label)

    def describe(self) -> Result:
        """``crawlq describe --json``: sizes, rates and checks, counted without building the chain."""
        return Result(dict(self._description))

    def __repr__(self) -> str:
        changed = "".join(f", {k} = {v:g}" for k, v in self._source.changes)
        return f"<crawlq.Scenario {self.name}: K = {self.capacity}{changed}>"

    # -- copies -------------------------------------------------------------------------------
    def _copy(self, changes: Sequence[tuple[str, float]], policy: tuple[str | None, str | None] | None = None) -> "Scenario":
        return Scenario(self._source.text, self._source.label, self._source.directory, changes,
                        self._policy if policy is None else policy)

    def with_(self, parameter: str, value: float) -> "Scenario":
        """A copy with one parameter changed, as ``sweep --param`` changes it (see ``crawlq.parameters``).

        ``with_("service-scale", 2)`` halves every service time; a new capacity drops the file's policy.
        """
        return self._copy([*self._source.changes, (parameter, float(value))])

    def with_capacity(self, capacity: int) -> "Scenario":
        """A copy with buffer capacity K = ``capacity`` (the file's own policy, a map of the old K, is dropped)."""
        return self.with_("capacity", capacity)

    def with_costs(self, **weights: float) -> "Scenario":
        """A copy with cost weights changed: ``with_costs(loss=10, robot=5)``."""
        changes = [*self._source.changes, *((f"costs.{k}", float(v)) for k, v in weights.items())]
        return self._copy(changes)

    def with_policy(self, thresholds: Any = None, levels: Any = None, policy: Any = None) -> "Scenario":
        """A copy whose policy, when a method is given none, is this one (any form ``solve`` takes)."""
        return self._copy(self._source.changes, _policy_arguments(thresholds, levels, policy, self._description))

    def _policy_or_own(self, thresholds: Any, levels: Any, policy: Any) -> tuple[str | None, str | None]:
        if thresholds is None and levels is None and policy is None:
            return self._policy
        return _policy_arguments(thresholds, levels, policy, self._description)

    # -- the commands ---------------------------------------------------------------------------
    @_takes_request("solve")
    def solve(self, thresholds: Sequence[int] | None = None, levels: Sequence[int] | None = None, policy: Any = None,
              *, progress: Any = None, **keywords: Any) -> SolveResult:
        """``crawlq solve --json``: the exact measures and cost of one policy.

        The policy: ``thresholds=[j1, ...]``, ``levels=[m0, ..., mK]``, or ``policy=`` any form of a
        scenario's ``policy:`` section as a dict, a table of robots by level and arrival phase, or a
        policy file's path (as ``optimize(export_policy=...)`` writes), or a Python function
        ``policy(level, arrival_phase, mode) -> robots`` (levels 0..K, arrival phases from 0, modes
        1..N), tabulated once before the run; none: the scenario's own.
        ``sojourn=True`` adds the sojourn times' laws, ``transforms=[u, ...]`` their Laplace-Stieltjes
        transforms, ``cdf=[x, ...]`` their distribution functions. ``method``: one of
        ``crawlq.methods``; ``threads``: inside the solve (0: every core).
        The result's ``stationary`` is the stationary vector, in the order of ``solve --export``, where
        ``full_chain=True`` or the clock's phases exit at different rates (``lumping`` absent):
        where they all exit at one rate the chain solved leaves them out, with the same measures.
        ``progress=True`` shows each step on stderr as it runs (a solve past a million states takes
        seconds to minutes, and warns first); ``progress=function`` receives each report instead
        (``crawlq._progress`` says what a report holds).
        """
        document = _document(self._policy_or_own(thresholds, levels, policy), keywords)
        data, stationary = _run_with(progress, "solve",
                                     lambda callback: _crawlq.solve(self._source, document, callback))
        return SolveResult(data, stationary)

    def log_ensemble(self, log: str | os.PathLike, *, bootstrap: int = 20, seed: int = 1,
                     thresholds: Sequence[int] | None = None, levels: Sequence[int] | None = None,
                     policy: Any = None) -> Result:
        """How sure an answer resting on a crawler's log is, in one call (the lab's *fit the log and
        refit it*): the log's arrivals fitted, refitted on ``bootstrap`` block-bootstrap resamples of
        its batches (``seed`` fixes them), each fit put in place of this scenario's arrivals (mode r
        is r times the fit) and solved under the policy. ``measures[KEY]`` holds the point fit's
        value (``point``) beside the refits' ``mean``, ``sd``, ``low`` and ``high`` (5% and 95%) and
        ``min``/``max``; ``by_refit`` each refit's measures. The same as ``fit_arrivals(log,
        scenario=self, bootstrap=B)`` written out and ``solve(ensemble=...)``.
        """
        keywords = _document(self._policy_or_own(thresholds, levels, policy), {})
        return Result(_crawlq.log_ensemble(self._source, os.fspath(log), bootstrap, seed, keywords))

    @_takes_request("optimize")
    def optimize(self, policy_class: str = "thresholds", *, progress: Any = None, **keywords: Any) -> Result:
        """``crawlq optimize --class CLASS --json``: the policy of least cost over a class.

        Classes (``policy_class``): thresholds (the paper's), levels, phase-aware, memory, markov (every
        policy that sees the whole state) and all (each of them, with the price of each restriction).
        ``search``: exhaustive, local or auto for the thresholds; ``export_policy``: a file to write the
        best policy to, in a form ``solve(policy=...)`` reads back. ``progress=True`` shows each stage
        of the search on stderr; ``progress=function`` receives each report instead.
        """
        document = _document(None, {"policy_class": policy_class, **keywords})
        return Result(_run_with(progress, "optimize",
                                lambda callback: _crawlq.optimize(self._source, document, callback)))

    @_takes_request("simulate")
    def simulate(self, thresholds: Sequence[int] | None = None, levels: Sequence[int] | None = None, policy: Any = None,
                 *, progress: Any = None, **keywords: Any) -> Result:
        """``crawlq simulate --json``: every measure as an :class:`Interval` (95%), by the simulator.

        Without ``replications`` (or with ``precision``), replications are added until the headline
        half-widths are within ``precision`` (default 1%) of their estimates or ``time_limit`` seconds
        pass; ``replications`` alone runs exactly that many. The same seed gives the same numbers for
        any ``threads``. ``progress=True`` shows the replications done (of the total, when
        ``replications`` alone fixes it) and the time left on stderr; ``progress=function`` receives
        each report instead.
        """
        document = _document(self._policy_or_own(thresholds, levels, policy), keywords)
        return Result(_run_with(progress, "simulate",
                                lambda callback: _crawlq.simulate(self._source, document, callback)))

    @_takes_request("compare")
    def compare(self, a: Any, b: Any, **keywords: Any) -> Result:
        """``crawlq simulate --compare --json``: policies ``a`` and ``b`` on common random numbers.

        Each replication runs both policies on the same arrivals, services and clocks, so that
        ``difference`` (B - A, every measure as an :class:`Interval`) is far tighter than two
        independent runs give (``independent_cost_half_width``). ``a`` and ``b`` take any form of
        ``policy=``: a dict such as ``{"thresholds": [-1, 2, 2]}``, a table, a file, a function.
        With ``times=[...]`` (and ``start=``, ``outage=``) it compares the two transients instead:
        ``a``, ``b`` and ``difference`` each hold ``times``, read with ``band(key)`` on
        ``Result(r.difference)``-style dicts or from ``to_dict()``.
        """
        policies = {}
        for name, value in (("a", a), ("b", b)):
            text, file = _policy_arguments(None, None, value, self._description)
            if (text, file) == (None, None):
                raise InputError("compare: give both policies, a and b")
            policies[name] = json.loads(text) if text is not None else file
        return Result(_crawlq.compare(self._source, _document(None, {**keywords, **policies})))

    @_takes_request("validate")
    def validate(self, thresholds: Sequence[int] | None = None, levels: Sequence[int] | None = None, policy: Any = None,
                 **keywords: Any) -> Result:
        """``crawlq validate --json`` on this scenario: each measure exact and simulated, its z-score and
        verdict; ``agrees`` is the verdict on them all."""
        return Result(_crawlq.validate(self._source,
                                       _document(self._policy_or_own(thresholds, levels, policy), keywords)))

    @_takes_request("sweep")
    def sweep(self, param: str, values: Iterable[float], **keywords: Any) -> SweepResult:
        """``crawlq sweep --param P --values ... --json``: the best policy re-optimised at each value
        (the paper's Tables 2-4). ``to_rows()`` / ``to_pandas()`` give one row a value."""
        return SweepResult(_crawlq.sweep(self._source, _document(None, {"param": param, "values": values,
                                                                         **keywords})))


def _scenario_text(path: str | os.PathLike) -> tuple[Path, str]:
    """The file a scenario argument means (a file here, else a shipped scenario's name) and its text."""
    located = Path(_crawlq.locate_scenario(os.fspath(path)))
    # The command line's reader: its size cap (a scenario file is small; /dev/zero is endless) and its
    # refusals, in its words.
    return located, _crawlq.read_file(str(located))


def load(path: str | os.PathLike) -> Scenario:
    """A scenario file (YAML or JSON, the format of interface.md), or a shipped scenario's name
    (``crawlq.load("paper-example-1")``; ``crawlq.scenarios()`` lists them): a file of that name in
    the current directory wins. InputError when it breaks a rule, or is neither."""
    path, text = _scenario_text(path)
    return Scenario(text, str(path), path.parent)


def scenarios() -> Result:
    """``crawlq scenarios --json``: the shipped scenarios and logs (``directory``, ``scenarios`` and
    ``logs``, each a list of dicts with ``name``, ``kind``, ``path`` and ``summary``). Each name works
    in ``load``, ``refresh`` and ``fit_arrivals``."""
    return Result(_crawlq.shipped())


def reproduce(sections: Iterable[str] = (), *, seed: int = 1, threads: int = 0, quick: bool = False,
              out: str | os.PathLike | None = None) -> Result:
    """``crawlq reproduce --json``: the papers' tables recomputed beside the printed values.

    ``sections`` from ``crawlq.reproduce_sections`` (none: the tables and refresh); ``out``: a
    directory for the report (report.md, report.html and the figures).
    """
    return Result(_crawlq.reproduce(int(seed), _threads(threads), quick, list(sections),
                                    os.fspath(out) if out is not None else None))


def refresh(path: str | os.PathLike, *, simulate: bool = False, seed: int = 1, replications: int = 10,
            horizon: float | None = None, threads: int = 0) -> Result:
    """``crawlq refresh --json``: page refresh scheduling (Coffman, Liu, Weber 1998) from its file
    (or a shipped refresh scenario's name)."""
    path, text = _scenario_text(path)
    return Result(_crawlq.refresh(text, str(path), simulate, int(seed), replications, horizon, _threads(threads)))


def fit_arrivals(path: str | os.PathLike, *, column: str = "", batch_gap: float | None = None,
                 censor_gap: float | None = None, lags: int = 6, robots: int | None = None,
                 scenario: "Scenario | str | os.PathLike | None" = None, method: str = "moments",
                 regimes: int = 2, phases: int | None = None, bootstrap: int = 0, seed: int = 1) -> Result:
    """``crawlq fit arrivals LOG --json``: a crawler's delivery log to a MAP of batches.

    Deliveries closer than ``batch_gap`` are one batch, gaps between batches longer than ``censor_gap``
    are left out (both chosen from the data when not given); the MAP matches the mean, variance and
    lag-1 correlation of the times between batches exactly and the decay of the next ``lags``;
    ``method="em"`` then maximises the likelihood (Baum-Welch over ``regimes`` hidden regimes);
    ``phases`` caps the MAP's order.
    ``bootstrap=B`` refits on B block resamples of the log's batches (blocks long enough to keep its
    correlations; ``seed`` fixes them): the result's ``bootstrap`` gives each fitted quantity's
    standard error and 95% interval (``crawlq fit arrivals --bootstrap B --out DIR`` writes the
    refitted scenarios, for ``solve``/``optimize`` with ``ensemble=DIR``).
    With ``scenario`` (a Scenario or a file), the result's ``scenario`` is a copy of it with its
    arrivals replaced by the BMAP of pages (``robots`` modes, default the scenario's).
    """
    base = load(scenario) if isinstance(scenario, (str, os.PathLike)) else scenario
    if robots is None:
        robots = len(base.describe().to_dict()["modes"]) if base is not None else 1
    fitted = _crawlq.fit_arrivals(os.fspath(path), column, batch_gap, censor_gap, lags, robots, method, regimes,
                                  phases, bootstrap, seed)
    result = Result(fitted)
    if base is not None:
        changed = _crawlq.with_fitted_arrivals(json.dumps(base.to_dict()), json.dumps(fitted))
        object.__setattr__(result, "scenario", Scenario.from_dict(changed, name=f"{base.name} fitted to {os.fspath(path)}"))
    return result


def fit_service(sample: str | os.PathLike | None = None, *, moments: Sequence[float] | None = None,
                mean: float | None = None, column: str = "", method: str = "moments", phases: int = 2) -> Result:
    """``crawlq fit service --json``: a phase-type law from a sample file or three moments.

    ``method="moments"``: the acyclic law of fewest phases with the three moments exactly (two
    exponentials where they reach them, as the paper fits its service time); ``method="em"``: maximum likelihood over ``phases`` exponentials
    mixed (a sample only). ``mean`` rescales the law to that mean time. ``beta`` and ``S`` are the
    scenario's ``service:`` section.
    """
    return Result(_crawlq.fit_law(os.fspath(sample) if sample is not None else None, column,
                                  [float(m) for m in moments] if moments is not None else None, mean, method, phases))


def fit_obsolescence(sample: str | os.PathLike | None = None, *, moments: Sequence[float] | None = None,
                     mean: float | None = None, column: str = "", method: str = "moments", phases: int = 2) -> Result:
    """``crawlq fit obsolescence --json``: the same fit as :func:`fit_service`, for the times to obsolescence."""
    return fit_service(sample, moments=moments, mean=mean, column=column, method=method, phases=phases)
