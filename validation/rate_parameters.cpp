#include "validation/rate_parameters.hpp"

#include <fmt/format.h>

#include "validation/sensitivity.hpp"

namespace crawlq::validation {

namespace {

using Law = RateParameter::Law;
using Kind = RateParameter::Kind;

// The rates and entries of one phase-type law under `key` ("service": beta, S; "obsolescence":
// gamma, Gamma).
void add_phase_type(const model::PhaseType& law, Law which, const std::string& key,
                    const char* start, const char* matrix, std::vector<RateParameter>& out) {
  const model::Matrix& t = law.subgenerator();
  for (int u = 0; u < t.rows(); ++u)
    for (int v = 0; v < t.cols(); ++v)
      if (u != v && t(u, v) != 0)
        out.push_back({.law = which,
                       .kind = Kind::kRate,
                       .row = u,
                       .column = v,
                       .name = fmt::format("{}.{}[{}][{}]", key, matrix, u, v),
                       .value = t(u, v),
                       .room = t(u, v)});
  for (int u = 0; u < t.rows(); ++u)
    if (const double exit = law.exit_rates()(u); exit != 0)
      out.push_back({.law = which,
                     .kind = Kind::kExit,
                     .row = u,
                     .name = fmt::format("{}.exit[{}]", key, u),
                     .value = exit,
                     .room = exit});
  const model::RowVector& initial = law.initial();
  if (initial.size() < 2) return;
  for (int u = 0; u < initial.size(); ++u)
    if (initial(u) < 1)
      out.push_back({.law = which,
                     .kind = Kind::kStart,
                     .row = u,
                     .name = fmt::format("{}.{}[{}]", key, start, u),
                     .value = initial(u),
                     .room = 1 - initial(u)});
}

model::PhaseType moved_law(const model::PhaseType& law, const RateParameter& parameter, double step,
                           const std::string& key, const char* start, const char* matrix) {
  model::RowVector initial = law.initial();
  model::Matrix t = law.subgenerator();
  const int u = parameter.row;
  switch (parameter.kind) {
    case Kind::kRate:
      t(u, parameter.column) += step;
      t(u, u) -= step;
      break;
    case Kind::kExit:
      t(u, u) -= step;
      break;
    case Kind::kStart: {
      const double others = 1 - initial(u);
      for (int v = 0; v < initial.size(); ++v)
        initial(v) = v == u ? initial(v) + step : initial(v) * (1 - step / others);
      break;
    }
  }
  return model::PhaseType(std::move(initial), std::move(t), key, start, matrix);
}

}  // namespace

std::vector<RateParameter> rate_parameters(const model::Model& model) {
  std::vector<RateParameter> out;
  for (int r = 1; r <= model.modes(); ++r) {
    const std::vector<model::Matrix>& d = model.arrivals.mode(r).matrices();
    for (int k = 0; k < static_cast<int>(d.size()); ++k)
      for (int u = 0; u < d[k].rows(); ++u)
        for (int v = 0; v < d[k].cols(); ++v)
          if ((k > 0 || u != v) && d[k](u, v) != 0)
            out.push_back({.law = Law::kArrivals,
                           .kind = Kind::kRate,
                           .mode = r - 1,
                           .batch = k,
                           .row = u,
                           .column = v,
                           .name = fmt::format("arrivals.modes[{}].D[{}][{}][{}]", r - 1, k, u, v),
                           .value = d[k](u, v),
                           .room = d[k](u, v)});
  }
  add_phase_type(model.service, Law::kService, "service", "beta", "S", out);
  if (model.obsolescence)
    add_phase_type(*model.obsolescence, Law::kObsolescence, "obsolescence", "gamma", "Gamma", out);
  return out;
}

model::Model moved(const model::Model& model, const RateParameter& parameter, double step) {
  model::Model m = model;
  switch (parameter.law) {
    case Law::kArrivals:
      return with_mode_matrices(model, parameter.mode + 1, [&](std::vector<model::Matrix>& d) {
        d[static_cast<std::size_t>(parameter.batch)](parameter.row, parameter.column) += step;
        d[0](parameter.row, parameter.row) -= step;
      });
    case Law::kService:
      m.service = moved_law(model.service, parameter, step, "service", "beta", "S");
      break;
    case Law::kObsolescence:
      m.obsolescence =
          moved_law(*model.obsolescence, parameter, step, "obsolescence", "gamma", "Gamma");
      break;
  }
  return m;
}

}  // namespace crawlq::validation
