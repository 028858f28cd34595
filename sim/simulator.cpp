#include "sim/simulator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "model/admission.hpp"
#include "model/input_error.hpp"
#include "sim/page_buffer.hpp"
#include "sim/phase_level_run.hpp"
#include "sim/statistics_observer.hpp"

// The loop's helpers are lambdas over its state: one left out of line would take the addresses of
// that state, and keep it in memory rather than registers for the whole loop.
#define CRAWLQ_INLINE __attribute__((always_inline))

namespace crawlq::sim {

namespace {

// Every observer of a run, for the general case. The replications' own statistics skip it: the loop
// is compiled for that final observer, so its calls are inlined instead of dispatched per event.
class ObserverFanOut {
 public:
  explicit ObserverFanOut(const std::vector<Observer*>& observers) : all_(observers) {
    for (Observer* o : observers)
      if (o->wants_state()) state_.push_back(o);
  }
  void on_interval(double from, double length, int level, int robots) {
    for (Observer* o : all_) o->on_interval(from, length, level, robots);
  }
  void on_batch(double t, int batch, int accepted) {
    for (Observer* o : all_) o->on_batch(t, batch, accepted);
  }
  void on_served(double t, double sojourn) {
    for (Observer* o : all_) o->on_served(t, sojourn);
  }
  void on_expired(double t, double sojourn) {
    for (Observer* o : all_) o->on_expired(t, sojourn);
  }
  void on_state(double t, int level, int robots) {
    for (Observer* o : state_) o->on_state(t, level, robots);
  }
  bool wants_state() const { return !state_.empty(); }

 private:
  const std::vector<Observer*>& all_;
  std::vector<Observer*> state_;
};

}  // namespace

Simulator::Simulator(const model::Model& model, const Policy& policy)
    : model_(model),
      policy_(policy),
      arrivals_(model.arrivals),
      service_(model.service),
      trace_(model.replayed_arrivals.get()) {
  if (model.obsolescence) obsolescence_.emplace(*model.obsolescence);
  if (model.rhythm && trace_)
    throw model::InputError(fmt::format(
        "{}: a replayed log under a rhythm: the log has its own rhythm; remove `rhythm:`",
        trace_->source));
  double shortest = std::numeric_limits<double>::infinity();
  if (trace_) {
    if (policy.reads_arrival_phase())
      throw model::InputError(fmt::format(
          "{}: a policy by the robots' phase needs the phase of the arrival law, and a replayed "
          "log has none",
          trace_->source));
    double end = 0;
    for (const double gap : trace_->gaps) {
      trace_ends_.push_back(end += gap);
      shortest = std::min(shortest, gap / model.modes());
    }
  }
  // A rhythm's fastest piece shortens every stay by its scale.
  const double fastest =
      model.rhythm ? *std::max_element(model.rhythm->scales.begin(), model.rhythm->scales.end())
                   : 1.0;
  for (int r = 1; r <= model.modes(); ++r)
    for (int phase = 0; phase < arrivals_.phases(); ++phase)
      shortest = std::min(shortest, arrivals_.mean_stay(r, phase) / fastest);
  const auto stays = [&](const model::PhaseType& law) {
    for (int i = 0; i < law.phases(); ++i)
      shortest = std::min(shortest, -1.0 / law.subgenerator()(i, i));
  };
  stays(model.service);
  if (model.obsolescence) stays(*model.obsolescence);
  rebase_after_ = std::ldexp(shortest, 20);
}

RunStatistics Simulator::run(std::uint64_t seed, std::uint64_t replication, double observe_from,
                             double until, const std::vector<Observer*>& observers,
                             const RunLimits& limits, const RunSetup& setup) const {
  if (policy_.needs_phases())
    return run_phase_level(model_, policy_, seed, replication, observe_from, until, observers,
                           limits, setup);
  const Path path{seed, replication, observe_from, until, limits, &setup};
  auto* statistics =
      observers.size() == 1 ? dynamic_cast<StatisticsObserver*>(observers[0]) : nullptr;
  const auto* level_map = dynamic_cast<const LevelMapPolicy*>(&policy_);
  if (statistics && level_map) return run_path(path, *level_map, *statistics);
  if (statistics) return run_path(path, policy_, *statistics);
  ObserverFanOut fan_out(observers);
  if (level_map) return run_path(path, *level_map, fan_out);
  return run_path(path, policy_, fan_out);
}

// Times in the loop are kept relative to `origin`, which moves up to the present once the local
// time passes rebase_after_ (2^20 of the model's shortest mean stay in any phase): a local time
// then resolves that stay to 2^-32 of itself however far the absolute time has run (at 1e12 a
// double cannot hold 1e-6).
namespace {
// How often the wall clock is read for a deadline: rarely enough to cost nothing, often enough to
// stop within milliseconds.
constexpr std::uint64_t kEventsPerClockCheck = 1 << 16;

// origin + shift, with the rounding of the sum carried in `error` (Kahan), so that the absolute
// time does not drift over millions of rebases.
void advance(double& origin, double& error, double shift) {
  const double y = shift - error;
  const double t = origin + y;
  error = (t - origin) - y;
  origin = t;
}
}  // namespace

template <class Controller, class Sink>
RunStatistics Simulator::run_path(const Path& path, const Controller& controller,
                                  Sink& sink) const {
  RandomStream arrival_random(path.seed, path.replication, Source::kArrivals);
  RandomStream service_random(path.seed, path.replication, Source::kService);
  RandomStream clock_random(path.seed, path.replication, Source::kObsolescence);
  const int capacity = model_.capacity;

  const RunSetup& setup = *path.setup;
  double origin = 0, origin_error = 0;                          // absolute time of local time 0
  double observe_from = path.observe_from, until = path.until;  // both local
  PageBuffer buffer(capacity - 1);
  int level = setup.level;
  double service_end = kNever, in_service_since = 0;
  int expiring = -1;  // index in the buffer of the next page to expire
  double next_expiry = kNever;
  const auto refresh_expiry = [&]() CRAWLQ_INLINE {
    expiring = buffer.first_to_expire();
    next_expiry = expiring < 0 ? kNever : buffer.at(expiring).expiry;
  };
  if (level > 0) {
    service_end = service_.sample(service_random);
    for (int page = 1; page < level; ++page)
      buffer.push({0.0, obsolescence_ ? obsolescence_->sample(clock_random) : kNever});
    refresh_expiry();
  }
  int robots =
      setup.robots > 0 ? setup.robots : controller.robots(SystemView{level, 0, 0, 0.0, -1});
  int phase = setup.arrival_law.empty() ? arrivals_.initial_phase(robots, arrival_random)
                                        : draw_from(setup.arrival_law, arrival_random);
  // A rhythm: piece k covers [k h, (k + 1) h) of absolute time, the arrivals sped up by its scale
  // (every D_k of every mode times it: the jumps' odds stay, the stays shrink).
  const model::Rhythm* rhythm = model_.rhythm ? &*model_.rhythm : nullptr;
  std::size_t piece = 0;
  double scale = rhythm ? rhythm->scales.front() : 1.0;
  // A stay at the present speed: without a rhythm no division (by 1, exact) on every move.
  const auto at_speed = [&](double stay) CRAWLQ_INLINE { return rhythm ? stay / scale : stay; };
  double next_piece = rhythm ? rhythm->piece_length() : kNever;  // absolute
  if (setup.robots == 0) robots = controller.robots(SystemView{level, phase, robots, 0.0, level});
  // A replayed log: the next batch is `replayed`, due when the rest of its gap (in the log's time,
  // which r robots cover r times as fast) has passed; a replication starts at a point uniform over
  // the log.
  std::size_t replayed = 0;
  double next_move = 0;
  if (trace_) {
    phase = 0;
    const double at = arrival_random.uniform() * trace_ends_.back();
    replayed = std::min<std::size_t>(
        std::upper_bound(trace_ends_.begin(), trace_ends_.end(), at) - trace_ends_.begin(),
        trace_ends_.size() - 1);
    next_move = (trace_ends_[replayed] - at) / robots;
  } else {
    next_move = at_speed(arrival_random.unit_exponential() * arrivals_.mean_stay(robots, phase));
  }
  // A new mode from `now`: the robots' pending move redrawn (exact: the time to it is
  // exponential), or a replayed log's time left rescaled to the new number of robots.
  const auto rescale_move = [&](double now, int decided) CRAWLQ_INLINE {
    next_move = trace_ ? now + (next_move - now) * robots / decided
                       : now + at_speed(arrival_random.unit_exponential() *
                                        arrivals_.mean_stay(decided, phase));
  };
  // The moments at which the run changes its rules (absolute times, in order): the indexer stops,
  // resumes, the controller is asked again.
  // The last, never reached, stands after all three have passed.
  std::array<double, 4> boundaries{setup.pause_from, setup.pause_to, setup.switch_at, kNever};
  if (!(setup.pause_from < setup.pause_to)) boundaries[0] = boundaries[1] = kNever;
  std::sort(boundaries.begin(), boundaries.end() - 1);
  std::size_t boundary = 0;
  // The first of the next piece's start and the next boundary (absolute): one test an event.
  double next_rule = std::min(next_piece, boundaries[0]);
  bool paused = false;
  double service_left = 0;  // of the page at the indexer while it is paused
  double last = 0;
  RunStatistics stats;

  const auto report_interval = [&](double to) CRAWLQ_INLINE {
    const double from = std::max(last, observe_from);
    if (to > from) sink.on_interval(origin + from, to - from, level, robots);
  };
  const auto rebase = [&](double shift) CRAWLQ_INLINE {
    advance(origin, origin_error, shift);
    next_move -= shift, service_end -= shift, in_service_since -= shift, next_expiry -= shift,
        last -= shift;
    buffer.shift_times(-shift);
    observe_from = path.observe_from - origin;
    until = path.until - origin;
  };

  while (true) {
    const int level_before = level;
    const double event = std::min(std::min(service_end, next_expiry), next_move);
    if (next_rule - origin < event && next_piece <= boundaries[boundary]) {
      const double piece_end = next_piece - origin;
      if (piece_end > until) break;
      report_interval(piece_end);
      last = piece_end;
      // The pending move keeps its exponential clock, run at the new speed; the controller is
      // asked again (a policy may follow the clock).
      const double before = scale;
      scale = rhythm->scales[++piece % rhythm->pieces()];
      next_piece = rhythm->piece_length() * static_cast<double>(piece + 1);
      next_rule = std::min(boundaries[boundary], next_piece);
      next_move = piece_end + (next_move - piece_end) * before / scale;
      const int decided =
          controller.robots(SystemView{level, phase, robots, origin + piece_end, level});
      if (decided != robots) {
        rescale_move(piece_end, decided);
        robots = decided;
      }
      continue;
    }
    if (next_rule - origin < event) {
      const double next_boundary = boundaries[boundary] - origin;
      if (next_boundary > until) break;
      report_interval(next_boundary);
      last = next_boundary;
      const double at = boundaries[boundary++];
      next_rule = std::min(next_piece, boundaries[boundary]);
      if (at == setup.pause_from) {
        paused = true;
        if (service_end < kNever) service_left = service_end - next_boundary;
        service_end = kNever;
      } else if (at == setup.pause_to) {
        paused = false;
        if (level > 0) service_end = next_boundary + service_left;
      }
      const int decided =
          controller.robots(SystemView{level, phase, robots, origin + next_boundary, level});
      if (decided != robots) {
        rescale_move(next_boundary, decided);
        robots = decided;
      }
      continue;
    }
    const double t = event;
    if (t > until) break;
    if (stats.events >= path.limits.max_events ||
        (stats.events % kEventsPerClockCheck == 0 &&
         (std::chrono::steady_clock::now() > path.limits.deadline ||
          (path.limits.stop && *path.limits.stop)))) {
      stats.complete = false;
      stats.simulated = origin + last;
      return stats;
    }
    report_interval(t);
    last = t;
    ++stats.events;
    const bool observed = t >= observe_from;
    bool phase_moved = false;
    if (service_end <= next_expiry && service_end <= next_move) {
      if (observed) sink.on_served(origin + t, t - in_service_since);
      --level;
      if (buffer.size() > 0) {
        in_service_since = buffer.pop_front().arrival;
        service_end = t + service_.sample(service_random);
        refresh_expiry();
      } else {
        service_end = kNever;
      }
    } else if (next_expiry <= next_move) {
      if (observed) sink.on_expired(origin + t, t - buffer.at(expiring).arrival);
      buffer.erase(expiring);
      --level;
      refresh_expiry();
    } else {
      ArrivalJump jump;
      if (trace_) {
        jump.batch = trace_->sizes[replayed];
        replayed = (replayed + 1) % trace_->gaps.size();
      } else {
        jump = arrivals_.jump(robots, phase, arrival_random);
      }
      phase = jump.next_phase;
      phase_moved = true;
      if (jump.batch > 0) {
        const int accepted = model::accepted_pages(model_.admission, level, capacity, jump.batch);
        if (observed) sink.on_batch(origin + t, jump.batch, accepted);
        for (int i = 0; i < accepted; ++i) {
          if (level == 0) {
            in_service_since = t;
            // Paused, the page waits at the indexer with its whole service ahead.
            if (paused)
              service_left = service_.sample(service_random);
            else
              service_end = t + service_.sample(service_random);
          } else {
            const double expiry = obsolescence_ ? t + obsolescence_->sample(clock_random) : kNever;
            buffer.push({t, expiry});
            if (expiry < next_expiry) {
              next_expiry = expiry;
              expiring = buffer.size() - 1;
            }
          }
          ++level;
        }
      }
    }
    // The controller looks at the new state; a new mode redraws the robots' pending move, which is
    // exact because the time to it is exponential.
    const int decided =
        controller.robots(SystemView{level, phase, robots, origin + t, level_before});
    if (trace_ && phase_moved) {
      robots = decided;
      next_move = t + trace_->gaps[replayed] / robots;
    } else if (phase_moved || decided != robots) {
      rescale_move(t, decided);
      robots = decided;
    }
    if (observed && sink.wants_state()) sink.on_state(origin + t, level, robots);
    if (t > rebase_after_) rebase(t);
  }
  report_interval(until);
  stats.simulated = path.until;
  return stats;
}

}  // namespace crawlq::sim
