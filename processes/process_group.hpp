#pragma once
// The processes one crawlq run is spread over: the P processes of `mpirun -np P crawlq ...`, or
// this process alone. Only plain numbers and text travel between them. A build with -DCRAWLQ_MPI=ON
// implements it with MPI (process_group_mpi.cpp, the only file that includes mpi.h); otherwise
// process_group_single.cpp is one process and needs no MPI.
//
// Rank 0 alone speaks: the constructor sends every other process's stdout and stderr to /dev/null,
// so that whatever a command prints comes out once. Files are the commands' business (rank 0 only).
#include <cstdint>
#include <string>
#include <vector>

namespace crawlq::processes {

class ProcessGroup {
 public:
  // Joins the processes mpirun started when crawlq was launched by one; otherwise this process
  // alone, without initialising MPI (see process_group_mpi.cpp for why). A build without MPI
  // launched as several processes says so once and exits with status 2.
  ProcessGroup(int& argc, char**& argv);
  // Flushes stdout, then leaves MPI (every process must get here, or the others wait).
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  // Collectives: every process must call the same ones in the same order.
  // Each process's `mine`, in rank order, on rank 0; the other ranks get nothing.
  std::vector<std::vector<double>> gather(const std::vector<double>& mine) const;
  std::vector<std::string> gather(const std::string& mine) const;
  // Each process's `mine`, in rank order, on every rank.
  std::vector<std::vector<double>> all_gather(const std::vector<double>& mine) const;
  // Rank 0's value on every rank.
  std::int64_t broadcast(std::int64_t value) const;

  // An error only this process has (the others may be waiting in a collective): `message` on this
  // process's own stderr, then every process ends with status 1.
  [[noreturn]] void abort(const std::string& message) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  bool joined_ = false;  // MPI initialised here, finalised by the destructor
  int stderr_ = 2;       // this process's stderr before rank 0 alone was given a voice
};

}  // namespace crawlq::processes
