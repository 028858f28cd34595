#include "sim/phase_level_run.hpp"

#include <algorithm>
#include <array>
#include <deque>

#include "model/admission.hpp"
#include "sim/page_buffer.hpp"
#include "sim/random_streams.hpp"

namespace crawlq::sim {

namespace {

// How often the wall clock is read for a deadline.
constexpr std::uint64_t kPhaseLevelEventsPerClockCheck = 1 << 14;

struct Waiting {
  double arrived;
  int clock;  // phase of its obsolescence clock (0 when pages never expire)
};

int draw_phase(const model::RowVector& initial, RandomStream& random) {
  double u = random.uniform(), sum = 0;
  for (Eigen::Index i = 0; i < initial.size(); ++i) {
    sum += initial(i);
    if (u < sum) return static_cast<int>(i);
  }
  return static_cast<int>(initial.size()) - 1;
}

}  // namespace

RunStatistics run_phase_level(const model::Model& model, const Policy& policy, std::uint64_t seed,
                              std::uint64_t replication, double observe_from, double until,
                              const std::vector<Observer*>& observers, const RunLimits& limits,
                              const RunSetup& setup) {
  RandomStream random(seed, replication, Source::kArrivals);
  const int capacity = model.capacity;
  // Each law's diagonal is its total outflow: what is left after the phase moves is the exit.
  const model::Matrix& s = model.service.subgenerator();
  const bool expires = model.obsolescence.has_value();
  const model::Matrix gamma =
      expires ? model.obsolescence->subgenerator() : model::Matrix::Zero(1, 1);
  const model::RowVector clock_start =
      expires ? model.obsolescence->initial() : model::RowVector::Ones(1);

  int level = 0, service_phase = 0, nu = 0, robots = 0;
  double in_service_since = 0, t = 0;
  std::deque<Waiting> queue;
  std::vector<int> clocks;  // the queue's clock phases, head first, for the controller
  const auto view = [&](int previous_level) {
    clocks.clear();
    for (const auto& w : queue) clocks.push_back(w.clock);
    return SystemView{level,  nu, robots, t, previous_level, level > 0 ? service_phase : -1,
                      &clocks};
  };
  if (setup.level > 0) {
    level = setup.level;
    service_phase = draw_phase(model.service.initial(), random);
    for (int page = 1; page < level; ++page)
      queue.push_back({0.0, draw_phase(clock_start, random)});
  }
  robots = setup.robots > 0 ? setup.robots : policy.robots(view(-1));
  nu = setup.arrival_law.empty() ? draw_phase(model.arrivals.mode(robots).stationary(), random)
                                 : draw_from(setup.arrival_law, random);
  if (setup.robots == 0) robots = policy.robots(view(level));
  // The moments at which the rules change (the indexer stops, resumes; the controller is asked
  // again), in order.
  // The last, never reached, stands after all three have passed.
  std::array<double, 4> boundaries{setup.pause_from, setup.pause_to, setup.switch_at, kNever};
  if (!(setup.pause_from < setup.pause_to)) boundaries[0] = boundaries[1] = kNever;
  std::sort(boundaries.begin(), boundaries.end() - 1);
  std::size_t boundary = 0;
  bool paused = false;
  // A rhythm: piece k covers [k h, (k + 1) h), every arrival rate times its scale; its start is one
  // more moment at which the controller is asked again.
  const model::Rhythm* rhythm = model.rhythm ? &*model.rhythm : nullptr;
  std::size_t piece = 0;
  double scale = rhythm ? rhythm->scales.front() : 1.0;
  double next_piece = rhythm ? rhythm->piece_length() : kNever;

  RunStatistics stats;
  while (true) {
    if (stats.events >= limits.max_events ||
        (stats.events % kPhaseLevelEventsPerClockCheck == 0 &&
         (std::chrono::steady_clock::now() > limits.deadline || (limits.stop && *limits.stop)))) {
      stats.complete = false;
      stats.simulated = t;
      return stats;
    }
    const model::Bmap& bmap = model.arrivals.mode(robots);
    // By reference: Bmap::d(k) copies, an allocation an event.
    const std::vector<model::Matrix>& d_k = bmap.matrices();
    const double arrival_rate = -d_k.front()(nu, nu) * scale;
    const double service_rate = level > 0 && !paused ? -s(service_phase, service_phase) : 0.0;
    double clock_rate = 0;
    for (const auto& w : queue) clock_rate -= gamma(w.clock, w.clock);
    const double total = arrival_rate + service_rate + clock_rate;
    const double drawn = t + random.unit_exponential() / total;
    // Every move is exponential: a step cut at a boundary is drawn afresh after it.
    const bool at_piece = next_piece < drawn && next_piece <= boundaries[boundary];
    const bool cut = at_piece || boundaries[boundary] < drawn;
    const double next = at_piece ? next_piece : cut ? boundaries[boundary] : drawn;
    const double from = std::max(t, observe_from), to = std::min(next, until);
    if (to > from)
      for (Observer* o : observers) o->on_interval(from, to - from, level, robots);
    if (next > until) break;
    if (at_piece) {
      t = next;
      scale = rhythm->scales[++piece % rhythm->pieces()];
      next_piece = rhythm->piece_length() * static_cast<double>(piece + 1);
      robots = policy.robots(view(level));
      continue;
    }
    if (cut) {
      t = next;
      const double at = boundaries[boundary++];
      if (at == setup.pause_from) paused = true;
      if (at == setup.pause_to) paused = false;
      robots = policy.robots(view(level));
      continue;
    }
    t = next;
    ++stats.events;
    const bool observed = t >= observe_from;
    const int previous_level = level;

    double u = random.uniform() * total;
    if (u < arrival_rate) {
      // The robots' move: a phase change (D_0) or a batch of k pages (D_k), by its rate (the
      // piece's scale divided out: it multiplies every one of them).
      u /= scale;
      bool moved = false;
      for (int k = 0; k <= bmap.max_batch() && !moved; ++k) {
        const model::Matrix& d = d_k[static_cast<std::size_t>(k)];
        for (int to_phase = 0; to_phase < d.cols() && !moved; ++to_phase) {
          if (k == 0 && to_phase == nu) continue;
          u -= d(nu, to_phase);
          if (u >= 0) continue;
          moved = true;
          nu = to_phase;
          if (k == 0) break;
          const int accepted = model::accepted_pages(model.admission, level, capacity, k);
          if (observed)
            for (Observer* o : observers) o->on_batch(t, k, accepted);
          for (int page = 0; page < accepted; ++page) {
            if (level == 0) {
              service_phase = draw_phase(model.service.initial(), random);
              in_service_since = t;
            } else {
              queue.push_back({t, draw_phase(clock_start, random)});
            }
            ++level;
          }
        }
      }
      // (Round-off may leave u a hair above the rates: then nothing moves.)
    } else if ((u -= arrival_rate) < service_rate) {
      // The server moves, or the page in service leaves served.
      bool moved = false;
      for (int next_phase = 0; next_phase < s.cols() && !moved; ++next_phase) {
        if (next_phase == service_phase) continue;
        u -= s(service_phase, next_phase);
        if (u < 0) {
          service_phase = next_phase;
          moved = true;
        }
      }
      if (!moved) {
        if (observed)
          for (Observer* o : observers) o->on_served(t, t - in_service_since);
        --level;
        if (!queue.empty()) {
          in_service_since = queue.front().arrived;
          queue.pop_front();
          service_phase = draw_phase(model.service.initial(), random);
        }
      }
    } else {
      // A waiting page's clock moves, or the page expires.
      u -= service_rate;
      for (std::size_t j = 0; j < queue.size(); ++j) {
        const int c = queue[j].clock;
        const double out = -gamma(c, c);
        if (u >= out) {
          u -= out;
          continue;
        }
        bool moved = false;
        for (int next_clock = 0; next_clock < gamma.cols() && !moved; ++next_clock) {
          if (next_clock == c) continue;
          u -= gamma(c, next_clock);
          if (u < 0) {
            queue[j].clock = next_clock;
            moved = true;
          }
        }
        if (!moved) {
          if (observed)
            for (Observer* o : observers) o->on_expired(t, t - queue[j].arrived);
          queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(j));
          --level;
        }
        break;
      }
    }
    robots = policy.robots(view(previous_level));
  }
  stats.simulated = until;
  return stats;
}

}  // namespace crawlq::sim
