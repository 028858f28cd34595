#include "processes/process_sweep.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "analytic/control/policy_search.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "processes/number_message.hpp"
#include "scenarios/policy_section.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::processes {

namespace {

using validation::SweepRow;

// Each value's process, the same on every rank: the largest optimisations first, each to the
// process with the least work so far (longest processing time first). An optimisation's work is
// taken as states x threshold policies; only the capacity changes either.
std::vector<int> owners(const model::Model& model, validation::SweepParameter parameter,
                        const std::vector<double>& values, int processes) {
  std::vector<double> work(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const model::Model m = validation::with_parameter(model, parameter, values[i]);
    work[i] = analytic::estimate_memory(m).states *
              static_cast<double>(analytic::threshold_policy_count(m.modes(), m.capacity));
  }
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  std::vector<double> load(processes, 0.0);
  std::vector<int> owner(values.size());
  for (const std::size_t i : order) {
    const auto least = std::min_element(load.begin(), load.end());
    owner[i] = static_cast<int>(least - load.begin());
    *least += work[i];
  }
  return owner;
}

// A class's best policy as numbers: the bytes of its policy section, which reads back as it (a new
// form travels as soon as the section knows it).
void put_policy(NumberWriter& out, const model::ControlPolicy& policy) {
  const std::string section = scenarios::policy_section(policy).dump();
  out.put(std::vector<unsigned char>(section.begin(), section.end()));
}

model::ControlPolicy policy_from(NumberReader& in, const model::Model& m) {
  const std::vector<int> bytes = in.list<int>();
  model::ControlPolicy policy =
      scenarios::parse_policy(std::string(bytes.begin(), bytes.end()), "a process's policy", m);
  // A table that travels is the Markov class's optimum: it keeps the name the search gave it.
  if (auto* table = std::get_if<model::TablePolicy>(&policy)) table->source = "markov optimum";
  return policy;
}

const std::vector<std::string> kOptimality{"global", "local", "heuristic"};

void put(NumberWriter& out, const SweepRow& row) {
  out.put(row.value);
  out.put(row.best.policy.levels());
  out.put(row.best.cost);
  out.put(row.constant);
  out.put(row.relative_profit);
  put_measures(out, row.measures);
  out.put(row.mean_service_time);
  out.put(row.mean_obsolescence_time);
  out.put(row.by_piece ? static_cast<double>(row.by_piece->thresholds.size()) : -1.0);
  if (row.by_piece) {
    for (const std::vector<int>& t : row.by_piece->thresholds) out.put(t);
    out.put(row.by_piece->cost);
  }
  out.put(row.class_best ? 1.0 : 0.0);
  if (!row.class_best) return;
  out.put(row.class_best->cost);
  out.put(static_cast<double>(
      std::find(kOptimality.begin(), kOptimality.end(), row.class_best->optimality) -
      kOptimality.begin()));
  put_policy(out, row.class_best->policy);
}

SweepRow row_from(NumberReader& in, const model::Model& model, validation::SweepParameter parameter,
                  const std::string& policy_class) {
  const int modes = model.modes();
  const double value = in.number();
  const std::vector<int> levels = in.list<int>();
  const double cost = in.number();
  std::vector<double> constant = in.list<double>();
  const double relative_profit = in.number();
  analytic::Measures m;
  read_measures(in, m);
  const double mean_service_time = in.number();
  const std::optional<double> mean_obsolescence_time = in.optional();
  std::optional<validation::SweepByPiece> by_piece;
  if (const double pieces = in.number(); pieces >= 0) {
    by_piece.emplace();
    for (std::size_t i = 0; i < static_cast<std::size_t>(pieces); ++i)
      by_piece->thresholds.push_back(in.list<int>());
    by_piece->cost = in.number();
  }
  std::optional<analytic::ClassRow> class_best;
  if (in.number() != 0) {
    const double cost = in.number();
    const std::string optimality = kOptimality.at(static_cast<std::size_t>(in.number()));
    class_best =
        analytic::ClassRow{policy_class, cost, optimality,
                           policy_from(in, validation::with_parameter(model, parameter, value))};
  }
  return SweepRow{.value = value,
                  .best = {.policy = model::Policy::from_levels(
                               levels, modes, static_cast<int>(levels.size()) - 1),
                           .cost = cost},
                  .constant = std::move(constant),
                  .relative_profit = relative_profit,
                  .measures = std::move(m),
                  .mean_service_time = mean_service_time,
                  .mean_obsolescence_time = mean_obsolescence_time,
                  .class_best = std::move(class_best),
                  .by_piece = std::move(by_piece)};
}

}  // namespace

std::vector<SweepRow> sweep_over_processes(const ProcessGroup& processes, const model::Model& model,
                                           validation::SweepParameter parameter,
                                           const std::vector<double>& values, int threads,
                                           const std::string& policy_class, bool full_chain) {
  if (processes.size() == 1)
    return validation::sweep(model, parameter, values, threads, policy_class, full_chain);

  const std::vector<int> owner = owners(model, parameter, values, processes.size());
  std::vector<std::size_t> mine;  // indices into `values`, in value order
  std::vector<double> my_values;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (owner[i] == processes.rank()) {
      mine.push_back(i);
      my_values.push_back(values[i]);
    }
  validation::SweepOutcomes outcomes =
      validation::sweep_outcomes(model, parameter, my_values, threads, policy_class, full_chain);

  // This share's first failure (its value's index, -1 for none; the message apart), then each row
  // after its value's index.
  NumberWriter out;
  std::string failure;
  double failed_index = -1;
  for (std::size_t k = 0; k < mine.size() && failure.empty(); ++k)
    if (outcomes.failures[k]) {
      failure = *outcomes.failures[k];
      failed_index = static_cast<double>(mine[k]);
    }
  out.put(failed_index);
  for (std::size_t k = 0; k < mine.size(); ++k)
    if (outcomes.rows[k]) {
      out.put(static_cast<double>(mine[k]));
      put(out, *outcomes.rows[k]);
    }
  const std::vector<std::vector<double>> parts = processes.gather(out.numbers());
  const std::vector<std::string> failures = processes.gather(failure);
  if (!processes.is_root()) return {};

  // Every value was tried on some process: the first failure in value order, as one process says.
  std::optional<std::size_t> first_failed;
  std::string first_failure;
  std::vector<std::optional<SweepRow>> rows(values.size());
  for (int r = 0; r < processes.size(); ++r) {
    NumberReader in(parts[r]);
    if (const double failed = in.number();
        failed >= 0 && (!first_failed || failed < static_cast<double>(*first_failed))) {
      first_failed = static_cast<std::size_t>(failed);
      first_failure = failures[r];
    }
    while (!in.done()) {
      const auto i = static_cast<std::size_t>(in.number());
      rows[i] = row_from(in, model, parameter, policy_class);
    }
  }
  if (first_failed) throw std::runtime_error(first_failure);
  std::vector<SweepRow> all;
  all.reserve(values.size());
  for (auto& row : rows) all.push_back(std::move(*row));
  return all;
}

}  // namespace crawlq::processes
