#include "processes/process_replications.hpp"

#include "processes/number_message.hpp"

namespace crawlq::processes {

namespace {

// What an estimate holds beyond the measures, in the order it travels: one list for both
// directions.
constexpr double sim::ReplicationEstimate::*kSimulatorScalars[] = {
    &sim::ReplicationEstimate::pages_offered, &sim::ReplicationEstimate::served_median,
    &sim::ReplicationEstimate::served_p90, &sim::ReplicationEstimate::served_p99};

void put(NumberWriter& out, const sim::ReplicationEstimate& e) {
  put_measures(out, e);
  for (const auto field : kSimulatorScalars) out.put(e.*field);
  out.put(e.served_sample);
  out.put(static_cast<double>(e.pieces.size()));
  for (const auto& piece : e.pieces) {
    put_measures(out, piece);
    out.put(piece.p_served_by_arrival);
    out.put(piece.p_obsolete_by_arrival);
  }
}

sim::ReplicationEstimate estimate_from(NumberReader& in) {
  sim::ReplicationEstimate e;
  read_measures(in, e);
  for (const auto field : kSimulatorScalars) e.*field = in.number();
  e.served_sample = in.list<double>();
  e.pieces.resize(in.count());
  for (auto& piece : e.pieces) {
    read_measures(in, piece);
    piece.p_served_by_arrival = in.number();
    piece.p_obsolete_by_arrival = in.number();
  }
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
  out.put(mine.cut_short ? 1.0 : 0.0);
  out.put(static_cast<double>(mine.estimates.size()));
  for (const auto& e : mine.estimates) put(out, e);

  sim::ReplicationBatch all;
  for (const std::vector<double>& part : processes_.all_gather(out.numbers())) {
    NumberReader in(part);
    all.events += static_cast<std::uint64_t>(in.number());
    // A share the deadline cut keeps its prefix: the run keeps every replication that finished
    // anywhere, and every process sees the same set.
    all.cut_short = in.number() != 0 || all.cut_short;
    for (std::size_t i = in.count(); i > 0; --i) all.estimates.push_back(estimate_from(in));
  }
  return all;
}

int ProcessReplications::agree(int value) const {
  return static_cast<int>(processes_.broadcast(value));
}

}  // namespace crawlq::processes
