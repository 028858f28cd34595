// ProcessGroup with MPI (-DCRAWLQ_MPI=ON): MPI_COMM_WORLD, MPI called from the main thread only
// (the threads of --threads never touch it).
//
// MPI is initialised only when a launcher started crawlq (Open MPI's mpirun sets
// OMPI_COMM_WORLD_SIZE, PMIx launchers PMIX_RANK, PMI ones such as MPICH's Hydra or Slurm
// PMI_SIZE). Without one, Open MPI 4.1's singleton init would start its own runtime daemon: silent,
// but `crawlq describe` took 0.50 s with it and 0.016 s without, paid by every one of the test
// suite's hundreds of runs; one process needs no MPI.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <string>

#include "processes/process_group.hpp"

namespace crawlq::processes {

namespace {

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

template <typename T>
MPI_Datatype datatype();
template <>
MPI_Datatype datatype<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype datatype<char>() {
  return MPI_CHAR;
}

// Counts first (one int each), then the data at their offsets. `everywhere`: every rank receives
// (MPI_Allgatherv), otherwise rank 0 alone (MPI_Gatherv).
template <typename T, typename Container>
std::vector<Container> gather_parts(const Container& mine, int size, bool root, bool everywhere) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(size), offsets(size);
  if (everywhere)
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  else
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  const bool receives = everywhere || root;
  std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
  Container all(receives ? static_cast<std::size_t>(offsets.back() + counts.back()) : 0, T{});
  if (everywhere)
    MPI_Allgatherv(mine.data(), count, datatype<T>(), all.data(), counts.data(), offsets.data(),
                   datatype<T>(), MPI_COMM_WORLD);
  else
    MPI_Gatherv(mine.data(), count, datatype<T>(), all.data(), counts.data(), offsets.data(),
                datatype<T>(), 0, MPI_COMM_WORLD);
  std::vector<Container> parts;
  if (!receives) return parts;
  for (int r = 0; r < size; ++r)
    parts.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  return parts;
}

}  // namespace

ProcessGroup::ProcessGroup(int& argc, char**& argv) {
  if (!launched_by_mpirun()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  joined_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (rank_ == 0) return;
  stderr_ = ::dup(STDERR_FILENO);
  std::fflush(stdout);
  if (std::freopen("/dev/null", "w", stdout) == nullptr ||
      std::freopen("/dev/null", "w", stderr) == nullptr)
    abort("crawlq: cannot send a peer process's output to /dev/null");
}

ProcessGroup::~ProcessGroup() {
  std::cout.flush();
  std::fflush(stdout);
  if (joined_) MPI_Finalize();
}

std::vector<std::vector<double>> ProcessGroup::gather(const std::vector<double>& mine) const {
  if (!joined_) return {mine};
  return gather_parts<double>(mine, size_, is_root(), false);
}

std::vector<std::string> ProcessGroup::gather(const std::string& mine) const {
  if (!joined_) return {mine};
  return gather_parts<char>(mine, size_, is_root(), false);
}

std::vector<std::vector<double>> ProcessGroup::all_gather(const std::vector<double>& mine) const {
  if (!joined_) return {mine};
  return gather_parts<double>(mine, size_, is_root(), true);
}

std::int64_t ProcessGroup::broadcast(std::int64_t value) const {
  if (joined_) MPI_Bcast(&value, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return value;
}

void ProcessGroup::abort(const std::string& message) const {
  std::cout.flush();
  std::fflush(stdout);
  const std::string line =
      (size_ > 1 ? "[process " + std::to_string(rank_) + " of " + std::to_string(size_) + "] "
                 : "") +
      message + "\n";
  [[maybe_unused]] const auto written = ::write(stderr_, line.data(), line.size());
  if (joined_) MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

}  // namespace crawlq::processes
