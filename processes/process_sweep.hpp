#pragma once
// `crawlq sweep`'s values spread over a ProcessGroup: each process optimises its share on its own
// threads, and rank 0 receives every row, in the order of the values.
#include <vector>

#include "model/model.hpp"
#include "processes/process_group.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::processes {

// validation::sweep over the processes: on rank 0 the rows it would return (the same numbers, since
// every value is optimised on one thread wherever it runs) or the std::runtime_error it would throw
// (the first failed value in value order); the other ranks return nothing. One process: exactly
// validation::sweep.
std::vector<validation::SweepRow> sweep_over_processes(
    const ProcessGroup& processes, const model::Model& model, validation::SweepParameter parameter,
    const std::vector<double>& values, int threads, const std::string& policy_class = "thresholds",
    bool full_chain = false);

}  // namespace crawlq::processes
