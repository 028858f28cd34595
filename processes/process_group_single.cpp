// ProcessGroup without MPI (-DCRAWLQ_MPI=OFF): this process alone.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "processes/process_group.hpp"

namespace crawlq::processes {

namespace {
// The number of processes a launcher started, from the variables of Open MPI's mpirun and of PMI
// launchers (MPICH's Hydra, Slurm): 1 when none is set.
int launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name)) return std::max(1, std::atoi(value));
  return 1;
}

bool launched_first() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value) == 0;
  return true;
}
}  // namespace

ProcessGroup::ProcessGroup(int&, char**&) {
  // P copies of the whole run, each printing the same answer, would only look like it worked.
  if (const int launched = launched_processes(); launched > 1) {
    if (launched_first())
      fmt::print(
          stderr,
          "crawlq: started as {} processes, but this build has no MPI: run it without mpirun, "
          "or build with -DCRAWLQ_MPI=ON\n",
          launched);
    std::exit(2);
  }
}

ProcessGroup::~ProcessGroup() = default;

std::vector<std::vector<double>> ProcessGroup::gather(const std::vector<double>& mine) const {
  return {mine};
}

std::vector<std::string> ProcessGroup::gather(const std::string& mine) const { return {mine}; }

std::vector<std::vector<double>> ProcessGroup::all_gather(const std::vector<double>& mine) const {
  return {mine};
}

std::int64_t ProcessGroup::broadcast(std::int64_t value) const { return value; }

void ProcessGroup::abort(const std::string& message) const {
  std::cout.flush();
  fmt::print(stderr, "{}\n", message);
  std::exit(1);
}

}  // namespace crawlq::processes
