#include "sim/refresh_simulator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "model/thread_count.hpp"
#include "model/worker_threads.hpp"
#include "sim/phase_type_sampler.hpp"
#include "sim/random_streams.hpp"

// Every read is simulated: the robot starts the next read when the last one completes. When a read
// of page i completes at t, its first change after it comes at t + Exp(mu_i); later changes while
// it is already stale do not matter (memorylessness), so that one draw per read is exact and the
// stale time up to the next completion t' is (t' - stale_from)^+, the paper's Z = (X - R)^+ of
// CLW (5).

namespace crawlq::sim {

namespace {

// The observed part [begin, end] of a replication: only stale time inside it counts.
struct Window {
  double begin = 0, end = 0;
  double overlap(double from, double to) const {
    return std::max(0.0, std::min(to, end) - std::max(from, begin));
  }
};

struct ConstantAccess {
  double value = 0;
  double sample(RandomStream&) const { return value; }
};
using AccessSampler = std::variant<ConstantAccess, PhaseTypeSampler>;

// Independent choices by the cumulative frequencies (a binary search: N may be in the thousands).
class RandomizedPages {
 public:
  RandomizedPages(const std::vector<double>& cumulative, RandomStream random)
      : cumulative_(cumulative), random_(random) {}
  // The last cumulative entry is exactly 1 and u < 1, so the search never runs off the end.
  int next() {
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), random_.uniform());
    return static_cast<int>(it - cumulative_.begin());
  }

 private:
  const std::vector<double>& cumulative_;
  RandomStream random_;
};

class CyclicPages {
 public:
  explicit CyclicPages(const std::vector<int>& cycle) : cycle_(cycle) {}
  int next() {
    const int page = cycle_[position_];
    if (++position_ == cycle_.size()) position_ = 0;
    return page;
  }

 private:
  const std::vector<int>& cycle_;
  std::size_t position_ = 0;  // every replication starts at the cycle's beginning
};

// What every replication shares, checked and tabulated once.
struct Setup {
  std::vector<double> change_rates;  // mu_i
  std::vector<double> cumulative;    // randomized order; empty for a cyclic one
  std::vector<int> cycle;            // cyclic order; empty for a randomized one
  AccessSampler access;
  Window window;
};

[[noreturn]] void reject(const std::string& what) {
  throw std::invalid_argument("refresh simulation: " + what);
}

std::vector<double> cumulative_frequencies(const std::vector<double>& f, int pages) {
  if (static_cast<int>(f.size()) != pages)
    reject(fmt::format("{} frequencies for {} pages", f.size(), pages));
  double sum = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    // 0 is allowed: the best randomized policy may never read a page (it stays stale).
    if (!std::isfinite(f[i]) || f[i] < 0)
      reject(fmt::format("frequencies[{}] = {}: must be >= 0", i, f[i]));
    sum += f[i];
  }
  if (std::abs(sum - 1) > 1e-9) reject(fmt::format("frequencies sum to {}, not 1", sum));
  // Dividing by the sum removes the rounding the check allowed.
  std::vector<double> cumulative;
  double c = 0;
  for (double x : f) cumulative.push_back(c += x / sum);
  // From the last page read at all on, every entry is exactly 1 (u < 1): the search never runs off
  // the end, and never picks a page of frequency 0 (its entry equals the one before).
  std::size_t last = f.size() - 1;
  while (f[last] == 0) --last;
  std::fill(cumulative.begin() + static_cast<std::ptrdiff_t>(last), cumulative.end(), 1.0);
  return cumulative;
}

Setup make_setup(const model::RefreshModel& model, const AccessOrder& order,
                 const RefreshSimulationPlan& plan) {
  const int pages = model.pages();
  if (pages == 0) reject("no pages");
  for (int i = 0; i < pages; ++i)
    if (!std::isfinite(model.change_rates[i]) || model.change_rates[i] <= 0)
      reject(
          fmt::format("change_rates[{}] = {}: must be finite and > 0", i, model.change_rates[i]));
  if (static_cast<int>(model.weights.size()) != pages)
    reject(fmt::format("{} weights for {} pages", model.weights.size(), pages));
  for (int i = 0; i < pages; ++i)
    if (!std::isfinite(model.weights[i]))
      reject(fmt::format("weights[{}] = {}: must be finite", i, model.weights[i]));
  if (!std::isfinite(plan.horizon) || plan.horizon <= 0)
    reject(fmt::format("horizon {}: must be finite and > 0", plan.horizon));
  if (!std::isfinite(plan.warmup) || plan.warmup < 0)
    reject(fmt::format("warmup {}: must be finite and >= 0", plan.warmup));
  if (plan.replications < 2)
    reject(fmt::format("{} replications: an interval needs at least 2", plan.replications));

  Setup s{};
  s.change_rates = model.change_rates;
  if (const auto* randomized = std::get_if<RandomizedOrder>(&order)) {
    s.cumulative = cumulative_frequencies(randomized->frequencies, pages);
  } else {
    s.cycle = std::get<CyclicOrder>(order).cycle;
    if (s.cycle.empty()) reject("an empty cycle");
    for (std::size_t k = 0; k < s.cycle.size(); ++k)
      if (s.cycle[k] < 0 || s.cycle[k] >= pages)
        reject(fmt::format("cycle[{}] = {}: pages are numbered 0..{}", k, s.cycle[k], pages - 1));
  }
  if (const auto* constant = std::get_if<model::DeterministicTime>(&model.access_time.law())) {
    // A read of no duration would never let the clock reach the window's end.
    if (!std::isfinite(constant->value) || constant->value <= 0)
      reject(fmt::format("deterministic access time {}: must be finite and > 0", constant->value));
    s.access = ConstantAccess{constant->value};
  } else {
    s.access.emplace<PhaseTypeSampler>(std::get<model::PhaseType>(model.access_time.law()));
  }
  s.window.begin = plan.warmup;
  s.window.end = plan.warmup + plan.horizon;
  return s;
}

// One replication: each page's stale time inside the window goes to `stale` (N entries, zeroed by
// the caller); returns the number of reads. Before its first read completes a page counts as stale
// from time 0, which only touches the warm-up (the window sees it only while no read of the page
// has completed). `stale_from` is scratch of N entries, so that the loop allocates nothing.
template <class Pages, class Access>
std::uint64_t observe(const Setup& s, Pages pages, const Access& access,
                      RandomStream& access_random, RandomStream& changes,
                      std::vector<double>& stale_from, double* stale) {
  std::fill(stale_from.begin(), stale_from.end(), 0.0);
  double now = 0;
  std::uint64_t reads = 0;
  while (now < s.window.end) {
    const int page = pages.next();
    now += access.sample(access_random);
    ++reads;
    stale[page] += s.window.overlap(stale_from[page], now);
    // Divided, not multiplied by 1 / mu: that overflows for mu below 1 / 1.8e308.
    stale_from[page] = now + changes.unit_exponential() / s.change_rates[page];
  }
  // The stale intervals still open at the window's end (those of pages whose last read crossed it
  // start after the end and add nothing).
  for (std::size_t i = 0; i < stale_from.size(); ++i)
    stale[i] += s.window.overlap(stale_from[i], s.window.end);
  return reads;
}

std::uint64_t run_replication(const Setup& s, std::uint64_t seed, int replication, double* stale) {
  RandomStream access_random(seed, replication, Source::kRefreshAccess);
  RandomStream changes(seed, replication, Source::kRefreshChanges);
  std::vector<double> stale_from(s.change_rates.size());
  const auto run = [&](auto pages) {
    return std::visit(
        [&](const auto& access) {
          return observe(s, pages, access, access_random, changes, stale_from, stale);
        },
        s.access);
  };
  if (!s.cumulative.empty())
    return run(
        RandomizedPages(s.cumulative, RandomStream(seed, replication, Source::kRefreshChoice)));
  return run(CyclicPages(s.cycle));
}

}  // namespace

RefreshSimulationNeed estimate_refresh_simulation(const model::RefreshModel& model,
                                                  const AccessOrder& order, double horizon,
                                                  double warmup) {
  const double pages = model.pages();
  RefreshSimulationNeed need;
  need.reads_per_replication = (warmup + horizon) / model.access_time.mean() + 1;
  // Its stale times, its reads, and its cost and one rate in the summary.
  need.bytes_per_replication = 8 * pages + 8 + 16;
  // The order (a copy of the cycle, or the cumulative frequencies), the rates and each thread's
  // scratch.
  const auto* cyclic = std::get_if<CyclicOrder>(&order);
  const double order_bytes = cyclic ? 4.0 * static_cast<double>(cyclic->cycle.size()) : 16 * pages;
  need.fixed_bytes = order_bytes + 8 * pages * (2 + model::available_cores());
  return need;
}

RefreshSimulationResult simulate_refresh(const model::RefreshModel& model, const AccessOrder& order,
                                         const RefreshSimulationPlan& plan) {
  const auto start = std::chrono::steady_clock::now();
  const Setup setup = make_setup(model, order, plan);
  const int pages = model.pages();
  const int count = plan.replications;
  // Each replication its own streams and result slots: the numbers do not depend on the threads.
  std::vector<double> stale(static_cast<std::size_t>(count) * pages, 0.0);
  std::vector<std::uint64_t> reads(count, 0);
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int r = next++; r < count; r = next++)
      reads[r] = run_replication(setup, plan.seed, r, &stale[static_cast<std::size_t>(r) * pages]);
  };
  // More threads than cores buy nothing (the numbers do not depend on them), and thousands of them
  // would fail to start.
  const int threads = std::max(
      1, std::min({model::resolved_threads(plan.threads), model::available_cores(), count}));
  model::run_on_threads(threads, work);

  RefreshSimulationResult result;
  // Costs in units of the largest weight: squared deviations of costs near 1e300 would overflow.
  double unit = 0;
  for (double c : model.weights) unit = std::max(unit, std::abs(c));
  if (unit == 0) unit = 1;
  std::vector<double> costs(count, 0.0), rates(count);
  for (int i = 0; i < pages; ++i) {
    for (int r = 0; r < count; ++r) {
      rates[r] = stale[static_cast<std::size_t>(r) * pages + i] / plan.horizon;
      costs[r] += model.weights[i] / unit * rates[r];  // C = sum c_i r_i, CLW (4)
    }
    result.obsolescence_rates.push_back(student_interval(rates));
  }
  result.cost = student_interval(costs);
  result.cost.mean *= unit;
  result.cost.half_width *= unit;
  for (auto n : reads) result.accesses += n;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace crawlq::sim
