#pragma once
// A simulation's replications spread over a ProcessGroup: process k runs the k-th of P contiguous
// shares on its own threads, and every process receives every estimate, in replication order.
#include "processes/process_group.hpp"
#include "sim/replications.hpp"

namespace crawlq::processes {

class ProcessReplications final : public sim::ReplicationSpread {
 public:
  explicit ProcessReplications(const ProcessGroup& processes) : processes_(processes) {}

  sim::ReplicationBatch run(const model::Model& model, const sim::Policy& policy,
                            const sim::ReplicationPlan& plan, int first, int count) const override;
  int agree(int value) const override;

 private:
  const ProcessGroup& processes_;
};

}  // namespace crawlq::processes
