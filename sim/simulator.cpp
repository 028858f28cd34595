#include "sim/simulator.hpp"

#include <algorithm>

#include "model/admission.hpp"

namespace crawlq::sim {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct WaitingPage {
  double arrival = 0;
  double expiry = kNever;
};

// The buffer: a ring of at most K-1 waiting pages in FIFO order, allocated once per run.
class Buffer {
 public:
  explicit Buffer(int capacity) : pages_(std::max(capacity, 1)) {}
  int size() const { return size_; }
  const WaitingPage& at(int i) const { return pages_[slot(i)]; }
  void push(const WaitingPage& page) { pages_[slot(size_++)] = page; }
  WaitingPage pop_front() {
    const WaitingPage page = pages_[head_];
    head_ = slot(1);
    --size_;
    return page;
  }
  void erase(int i) {
    for (int j = i; j + 1 < size_; ++j) pages_[slot(j)] = pages_[slot(j + 1)];
    --size_;
  }
  // The waiting page that expires first, or -1.
  int first_to_expire() const {
    int best = -1;
    double earliest = kNever;
    for (int i = 0; i < size_; ++i)
      if (at(i).expiry < earliest) earliest = at(best = i).expiry;
    return best;
  }

 private:
  int slot(int i) const {
    const int s = head_ + i;
    return s >= static_cast<int>(pages_.size()) ? s - static_cast<int>(pages_.size()) : s;
  }
  std::vector<WaitingPage> pages_;
  int head_ = 0, size_ = 0;
};

}  // namespace

Simulator::Simulator(const model::Model& model, const Policy& policy)
    : model_(model), policy_(policy), arrivals_(model.arrivals), service_(model.service) {
  if (model.obsolescence) obsolescence_.emplace(*model.obsolescence);
}

RunStatistics Simulator::run(std::uint64_t seed, std::uint64_t replication, double observe_from,
                             double until, const std::vector<Observer*>& observers) const {
  RandomStream arrival_random(seed, replication, Source::kArrivals);
  RandomStream service_random(seed, replication, Source::kService);
  RandomStream clock_random(seed, replication, Source::kObsolescence);
  const int capacity = model_.capacity;

  Buffer buffer(capacity - 1);
  int level = 0;
  int phase = 0;
  int robots = policy_.robots(SystemView{0, 0, 0, 0.0});
  phase = arrivals_.initial_phase(robots, arrival_random);
  robots = policy_.robots(SystemView{0, phase, robots, 0.0});
  double next_move = arrival_random.exponential(arrivals_.rate(robots, phase));
  double service_end = kNever, in_service_since = 0;
  int expiring = -1;  // index in the buffer of the next page to expire
  double next_expiry = kNever;
  double last = 0;
  RunStatistics stats;
  std::vector<Observer*> state_observers;
  for (Observer* o : observers)
    if (o->wants_state()) state_observers.push_back(o);

  const auto report_interval = [&](double to) {
    const double from = std::max(last, observe_from);
    if (to > from)
      for (Observer* o : observers) o->on_interval(from, to, level, robots);
  };
  const auto refresh_expiry = [&] {
    expiring = buffer.first_to_expire();
    next_expiry = expiring < 0 ? kNever : buffer.at(expiring).expiry;
  };

  while (true) {
    const double t = std::min(std::min(service_end, next_expiry), next_move);
    if (t > until) break;
    report_interval(t);
    last = t;
    ++stats.events;
    const bool observed = t >= observe_from;
    bool phase_moved = false;
    if (service_end <= next_expiry && service_end <= next_move) {
      if (observed)
        for (Observer* o : observers) o->on_served(t, t - in_service_since);
      --level;
      if (buffer.size() > 0) {
        in_service_since = buffer.pop_front().arrival;
        service_end = t + service_.sample(service_random);
        refresh_expiry();
      } else {
        service_end = kNever;
      }
    } else if (next_expiry <= next_move) {
      if (observed)
        for (Observer* o : observers) o->on_expired(t, t - buffer.at(expiring).arrival);
      buffer.erase(expiring);
      --level;
      refresh_expiry();
    } else {
      const ArrivalJump jump = arrivals_.jump(robots, phase, arrival_random);
      phase = jump.next_phase;
      phase_moved = true;
      if (jump.batch > 0) {
        const int accepted = model::accepted_pages(model_.admission, level, capacity, jump.batch);
        if (observed)
          for (Observer* o : observers) o->on_batch(t, jump.batch, accepted);
        for (int i = 0; i < accepted; ++i) {
          if (level == 0) {
            in_service_since = t;
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
    const int decided = policy_.robots(SystemView{level, phase, robots, t});
    if (phase_moved || decided != robots) {
      robots = decided;
      next_move = t + arrival_random.exponential(arrivals_.rate(robots, phase));
    }
    if (observed)
      for (Observer* o : state_observers) o->on_state(t, level, robots);
  }
  report_interval(until);
  return stats;
}

}  // namespace crawlq::sim
