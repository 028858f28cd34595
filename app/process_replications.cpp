#include "app/process_replications.hpp"

#include "app/number_message.hpp"

namespace crawlq::app {

namespace {

void put(NumberWriter& out, const sim::ReplicationEstimate& e) {
  for (const double x :
       {e.lambda, e.p_loss, e.p_obsolete, e.p_served, e.p_starvation, e.mean_in_system,
        e.mean_in_queue, e.mean_active_robots, e.mean_sojourn, e.mean_sojourn_served,
        e.mean_sojourn_obsolete, e.cost, e.served_median, e.served_p90, e.served_p99})
    out.put(x);
  out.put(e.level_probabilities);
  out.put(e.mode_probabilities);
  out.put(e.served_sample);
}

sim::ReplicationEstimate estimate_from(NumberReader& in) {
  sim::ReplicationEstimate e;
  for (double* x :
       {&e.lambda, &e.p_loss, &e.p_obsolete, &e.p_served, &e.p_starvation, &e.mean_in_system,
        &e.mean_in_queue, &e.mean_active_robots, &e.mean_sojourn, &e.mean_sojourn_served,
        &e.mean_sojourn_obsolete, &e.cost, &e.served_median, &e.served_p90, &e.served_p99})
    *x = in.number();
  e.level_probabilities = in.list<double>();
  e.mode_probabilities = in.list<double>();
  e.served_sample = in.list<double>();
  return e;
}

}  // namespace

sim::ReplicationBatch ProcessReplications::run(const model::Model& model, const sim::Policy& policy,
                                               const sim::ReplicationPlan& plan, int first,
                                               int count) const {
  // Contiguous shares in rank order: gathered in rank order, the estimates are in replication
  // order.
  const auto share_start = [&](int rank) {
    return first + static_cast<int>(static_cast<std::int64_t>(count) * rank / processes_.size());
  };
  const int mine_first = share_start(processes_.rank());
  const int mine_count = share_start(processes_.rank() + 1) - mine_first;
  const sim::ReplicationBatch mine =
      sim::run_replications(model, policy, plan, mine_first, mine_count);

  NumberWriter out;
  // Events travel as a double: exact below 2^53, far beyond any run's count.
  out.put(static_cast<double>(mine.events));
  out.put(static_cast<double>(mine.estimates.size()));
  for (const auto& e : mine.estimates) put(out, e);

  sim::ReplicationBatch all;
  for (const std::vector<double>& part : processes_.all_gather(out.numbers())) {
    NumberReader in(part);
    all.events += static_cast<std::uint64_t>(in.number());
    for (std::size_t i = in.count(); i > 0; --i) all.estimates.push_back(estimate_from(in));
  }
  return all;
}

int ProcessReplications::agree(int value) const {
  return static_cast<int>(processes_.broadcast(value));
}

}  // namespace crawlq::app
