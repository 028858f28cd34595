// Times and rates in the scenario's own unit (`time_unit: minute`), as the command line prints them;
// "time units" when the scenario names none.
export function timeUnits(unit) {
  if (!unit) return "time units";
  return unit.length <= 3 ? unit : `${unit}s`;
}
export function perTimeUnit(unit) { return unit ? `per ${unit}` : "per unit time"; }
// A measure's unit by its dimension in the server's measure list ("pages/time", "time" or "").
export function measureUnit(dimension, unit) {
  if (dimension === "pages/time") return `pages ${perTimeUnit(unit)}`;
  if (dimension === "time") return timeUnits(unit);
  return "";
}
