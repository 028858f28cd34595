#pragma once
// Two settings of the runtime that are read once, when the program loads, before main; the program
// starts itself again with them unless the user set these variables:
// - OMP_WAIT_POLICY=PASSIVE with GOMP_SPINCOUNT=10000 (unless the user set either): OpenMP threads
//   that wait for the next parallel region by spinning hold a core another program may need. On two
//   cores with one kept busy, a solve on two threads took 14 times as long as on one (K = 16
//   --sojourn: 16.4 s against 1.2 s), and 1.16 s with the threads waiting passively. Not spinning
//   at all costs a quiet machine as much: each of the solve's barriers then wakes a sleeping
//   thread, slow on a VM, and two threads took as long as one at K = 16 (0.295 s); spinning 10,000
//   rounds (a few hundred microseconds) before sleeping, 0.75 of that. While other programs hold
//   the cores, the solves drop to the threads that fit (analytic/adaptive_threads.hpp), so their
//   threads wait little.
// - GLIBC_TUNABLES=glibc.malloc.hugetlb=1: the vectors of a large chain (tens of megabytes each)
//   are backed by transparent huge pages, which the kernel gives only where malloc asks for them.
//   Fewer page faults and TLB misses: K = 20 `solve --sojourn` on two threads, 5.38 s against 6.47
//   s (median of four whole processes each).
namespace crawlq::app {

// Returns only when both are set (or starting again failed, and the program runs as it is).
void start_with_runtime_settings(char** argv);

}  // namespace crawlq::app
