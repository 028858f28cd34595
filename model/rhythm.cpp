#include "model/rhythm.hpp"

#include <fmt/format.h>

#include <numeric>

#include "model/input_error.hpp"

namespace crawlq::model {

double Rhythm::mean_scale() const {
  return std::accumulate(scales.begin(), scales.end(), 0.0) / static_cast<double>(pieces());
}

ArrivalModes scaled_arrivals(const ArrivalModes& arrivals, double s) {
  std::vector<Bmap> modes;
  for (int r = 1; r <= arrivals.modes(); ++r) {
    const std::string key = fmt::format("arrivals.modes[{}].D", r - 1);
    std::vector<Matrix> d;
    for (const auto& matrix : arrivals.mode(r).matrices()) {
      Matrix scaled = s * matrix;
      // inf - inf rows would slip past the generator checks as NaN.
      if (!scaled.allFinite())
        throw InputError(fmt::format("{}[{}]", key, d.size()),
                         fmt::format("a rate overflows when multiplied by {}", s));
      d.push_back(std::move(scaled));
    }
    modes.emplace_back(std::move(d), key);
  }
  return ArrivalModes(std::move(modes));
}

}  // namespace crawlq::model
