"""Results as Python objects: the JSON of a command, its keys as attributes.

A result wraps the dict the command line's ``--json`` prints for the same request (``to_dict()``
returns it, equal key for key and digit for digit). Reading an attribute converts on the way out:
lists of numbers become numpy arrays, a simulated measure ``{"mean", "half_width"}`` an
:class:`Interval`, a list of them an :class:`IntervalArray`, nested objects results of their own.
"""
from __future__ import annotations

import copy
import numbers
from typing import Any, Iterator

import numpy as np


class Interval:
    """A simulated measure: the mean of the replications and the half-width of its 95% interval."""

    __slots__ = ("mean", "half_width")

    def __init__(self, mean: float, half_width: float) -> None:
        self.mean = float(mean)
        self.half_width = float(half_width)

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high

    def __float__(self) -> float:
        return self.mean

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Interval) and (self.mean, self.half_width) == (other.mean, other.half_width)

    def __repr__(self) -> str:
        return f"{self.mean:.6g} ± {self.half_width:.2g}"


class IntervalArray:
    """A list of simulated measures (level or mode probabilities) as two numpy arrays."""

    __slots__ = ("mean", "half_width")

    def __init__(self, intervals: list[dict]) -> None:
        self.mean = np.array([i["mean"] for i in intervals], dtype=float)
        self.half_width = np.array([i["half_width"] for i in intervals], dtype=float)

    def __len__(self) -> int:
        return len(self.mean)

    def __getitem__(self, i: int) -> Interval:
        return Interval(self.mean[i], self.half_width[i])

    def __iter__(self) -> Iterator[Interval]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return "[" + ", ".join(repr(i) for i in self) + "]"


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _is_short_list(x: Any) -> bool:
    """A list of a few numbers (a policy's thresholds or levels), shown in full in a result's repr."""
    return isinstance(x, list) and 0 < len(x) <= 24 and all(_is_number(v) for v in x)


def _shown(x: Any) -> str:
    return "[" + ", ".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in x) + "]" if isinstance(x, list) else repr(x)


def _is_interval(x: Any) -> bool:
    return isinstance(x, dict) and set(x) == {"mean", "half_width"}


def wrap(value: Any) -> Any:
    """A JSON value as the attribute a user reads."""
    if isinstance(value, dict):
        return Interval(value["mean"], value["half_width"]) if _is_interval(value) else Result(value)
    if isinstance(value, list):
        if value and all(_is_number(x) for x in value):
            whole = all(isinstance(x, numbers.Integral) for x in value)
            return np.array(value, dtype=np.int64 if whole else float)
        if value and all(_is_interval(x) for x in value):
            return IntervalArray(value)
        if value and all(isinstance(x, list) and x and all(_is_number(y) for y in x) for x in value) and len(
            {len(x) for x in value}
        ) == 1:
            whole = all(isinstance(y, numbers.Integral) for x in value for y in x)
            return np.array(value, dtype=np.int64 if whole else float)
        return [wrap(x) for x in value]
    return value


class Result:
    """The JSON of a command as an object: ``r.p_loss`` is ``r.to_dict()["p_loss"]``, converted.

    ``r["key"]`` reads keys that are not identifiers; ``keys()`` lists them all.
    """

    def __init__(self, data: dict) -> None:
        object.__setattr__(self, "_data", data)

    def to_dict(self) -> dict:
        """The command's JSON, as ``json.loads`` of ``crawlq <command> --json`` would give it."""
        return copy.deepcopy(self._data)

    def keys(self) -> list[str]:
        return list(self._data)

    def __getitem__(self, key: str) -> Any:
        return wrap(self._data[key])

    def __getattr__(self, name: str) -> Any:
        try:
            return wrap(self._data[name])
        except KeyError:
            raise AttributeError(f"no key {name!r} in this result; its keys: {', '.join(self._data)}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("results are read-only; to_dict() gives a copy to change")

    def __contains__(self, key: str) -> bool:
        return key in self._data

    def over_time(self, key: str) -> np.ndarray:
        """A transient's ``key`` at each of its times as a numpy array (``solve(times=...)``):
        ``over_time("t")`` the times, ``over_time("lost")`` the expected pages lost by each, and
        ``over_time("level_probabilities")`` a matrix, one row per time and one column per level.
        A simulated transient (``simulate(times=...)``) gives the means; :meth:`band` gives the
        half-widths beside them. A rate with no estimate (a stretch of no length) is nan."""
        return self._over_time(key, "mean")

    def elasticities(self, measure: str | None = None,
                     parameter: str | None = None) -> list[tuple[str, str, float | None]]:
        """``solve(sensitivity=True)``'s rows as (parameter, measure, elasticity), the largest
        first, as the command line's table sorts them: the percent change of the measure per percent
        change of the parameter (None where the measure is 0). ``measure`` or ``parameter`` keeps
        one measure's or one parameter's rows; ``to_dict()["sensitivity"]`` has the derivatives."""
        if "sensitivity" not in self._data:
            raise AttributeError("no sensitivities in this result: give solve() sensitivity=True or sensitivity_rates=True")
        rows = [(r["parameter"], r["measure"], r["elasticity"]) for r in self._data["sensitivity"]
                if (measure is None or r["measure"] == measure)
                and (parameter is None or r["parameter"] == parameter)]
        if not rows and (measure is not None or parameter is not None):
            known = sorted({r["measure"] for r in self._data["sensitivity"]}) if measure is not None \
                else sorted({r["parameter"] for r in self._data["sensitivity"]})
            raise KeyError(f"{measure if measure is not None else parameter!r}: not in the sensitivities "
                           f"(there: {', '.join(known)})")
        return sorted(rows, key=lambda r: (r[2] is None, -abs(r[2] or 0.0)))

    def band(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        """A simulated transient's ``key`` at each time: the means and the 95% half-widths, as
        two numpy arrays (matrices for ``level_probabilities``)."""
        points = self._data.get("times") or []
        if points and key in points[0] and not _is_interval(points[0][key]) and key != "level_probabilities":
            raise KeyError(f"{key!r}: not an estimate with a half-width (simulate(times=...) gives them)")
        return self._over_time(key, "mean"), self._over_time(key, "half_width")

    def _over_time(self, key: str, part: str) -> np.ndarray:
        if "times" not in self._data or not isinstance(self._data["times"], list) or \
                (self._data["times"] and not isinstance(self._data["times"][0], dict)):
            raise AttributeError("no transient in this result: give solve() or simulate() times=[...]")
        points = self._data["times"]
        if points and key not in points[0]:
            raise KeyError(f"{key!r}: not a key of a transient's time (its keys: {', '.join(points[0])})")

        def value(v: Any) -> Any:
            if isinstance(v, list):
                return [value(x) for x in v]
            if isinstance(v, dict):
                v = v[part]
            elif part == "half_width":
                return 0.0
            return np.nan if v is None else v

        return np.array([value(p[key]) for p in points], dtype=float)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | {k for k in self._data if k.isidentifier()})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Result) and self._data == other._data

    def _scalars(self) -> list[tuple[str, Any]]:
        return [(k, v) for k, v in self._data.items()
                if _is_number(v) or _is_interval(v) or isinstance(v, (str, bool)) or _is_short_list(v)]

    def __repr__(self) -> str:
        lines = [f"<{type(self).__name__}>"]
        for key, value in self._scalars():
            shown = repr(wrap(value)) if _is_interval(value) else (f"{value:.6g}" if _is_number(value) else _shown(value))
            lines.append(f"  {key:<28} {shown}")
        others = [k for k in self._data if k not in dict(self._scalars())]
        if others:
            lines.append("  also: " + ", ".join(others))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for key, value in self._scalars():
            shown = repr(wrap(value)) if _is_interval(value) else (f"{value:.6g}" if _is_number(value) else _shown(value) if isinstance(value, list) else str(value))
            rows.append(f"<tr><td><code>{key}</code></td><td>{shown}</td></tr>")
        others = [k for k in self._data if k not in dict(self._scalars())]
        tail = f"<p>also: {', '.join(others)}</p>" if others else ""
        return f"<table><tr><th>key</th><th>value</th></tr>{''.join(rows)}</table>{tail}"


class SolveResult(Result):
    """``solve``'s result; ``stationary`` is the stationary vector in the order of ``solve --export``,
    where the chain solved kept every phase of the obsolescence clock (``lumping`` absent)."""

    def __init__(self, data: dict, stationary: np.ndarray) -> None:
        super().__init__(data)
        # A vector over the lumped chain's states is in no order a user can read back.
        if "lumping" not in data:
            object.__setattr__(self, "stationary", stationary)

    def __getattr__(self, name: str) -> Any:
        if name == "stationary":
            raise AttributeError(
                f"no stationary vector over every state: {self._data['lumping']}; "
                "solve(full_chain=True) gives it")
        return super().__getattr__(name)


class SweepResult(Result):
    """``sweep``'s result; ``to_rows()`` flattens it for a table, ``to_pandas()`` makes the table."""

    def to_rows(self) -> list[dict]:
        """One flat dict a value: the value, the best thresholds and cost, and every scalar measure."""
        rows = []
        for row in self._data["rows"]:
            flat = {}
            for key, value in row.items():
                if isinstance(value, dict):
                    for inner, x in value.items():
                        if not isinstance(x, (list, dict)) or inner in ("thresholds", "levels"):
                            flat[f"{key}.{inner}"] = x
                elif not isinstance(value, list) or key in ("thresholds", "levels"):
                    flat[key] = value
            rows.append(flat)
        return rows

    def to_pandas(self):
        """The rows as a pandas DataFrame (pandas must be installed: ``apt-get install python3-pandas``)."""
        import pandas  # noqa: PLC0415 - optional, imported only when asked for

        return pandas.DataFrame(self.to_rows())
