#include "app/periodic_figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "model/time_unit.hpp"

namespace crawlq::app {

output::Figure periodic_figure(const model::Model& model, const analytic::PeriodicRegime& regime) {
  const model::Rhythm& rhythm = *model.rhythm;
  output::Figure f = output::make_figure(
      fmt::format("{}: the period piece by piece ({} pieces of {:g} {})",
                  model.name.empty() ? "scenario" : model.name, rhythm.pieces(),
                  rhythm.piece_length(), model::time_unit_plural(model.time_unit)),
      fmt::format("time of the period ({})", model::time_unit_plural(model.time_unit)),
      "share of the pages offered in the piece");
  f.y2_label = "pages in the system, active robots, arrival scale (means)";
  f.key_below = true;
  f.height = 560;
  f.y_low = 0;
  f.y_high = 1;
  using Value = std::function<double(const analytic::PeriodicPiece&)>;
  const auto steps = [&](std::string title, int axis, int color, const Value& value) {
    output::Series s =
        output::make_series(std::move(title), output::SeriesStyle::kSteps, axis, color);
    for (const analytic::PeriodicPiece& piece : regime.pieces) {
      s.x.push_back(piece.start);
      s.y.push_back(value(piece));
    }
    // The last piece holds until the period's end.
    s.x.push_back(rhythm.period);
    s.y.push_back(s.y.back());
    f.series.push_back(std::move(s));
  };
  steps("lost", 1, 7, [](const auto& p) { return p.measures.p_loss; });
  steps("later served", 1, 1, [](const auto& p) { return p.served_by_arrival; });
  steps("later stale", 1, 3, [](const auto& p) { return p.obsolete_by_arrival; });
  steps("pages in the system", 2, 4, [](const auto& p) { return p.measures.mean_in_system; });
  steps("active robots", 2, 6, [](const auto& p) { return p.measures.mean_active_robots; });
  steps("arrival scale", 2, 8, [](const auto& p) { return p.scale; });
  // The right axis from 0 too, so that a swing is read at its true size.
  for (const output::Series& s : f.series)
    if (s.axis == 2)
      for (const double y : s.y) f.y2_high = std::max(f.y2_high, 1.1 * y);
  f.y2_low = 0;
  return f;
}

}  // namespace crawlq::app
