#pragma once
// Settings of the OpenMP runtime, read once when the program loads, before main; the program starts
// itself again with them unless the user set either variable:
// OMP_WAIT_POLICY=PASSIVE with GOMP_SPINCOUNT=10000. OpenMP threads that wait for the next parallel
// region by spinning hold a core another program may need. On two cores with one kept busy, a solve
// on two threads took 14 times as long as on one (K = 16 --sojourn: 16.4 s against 1.2 s), and
// 1.16 s with the threads waiting passively. Not spinning at all costs a quiet machine as much:
// each of the solve's barriers then wakes a sleeping thread, slow on a VM, and two threads took as
// long as one at K = 16 (0.295 s); spinning 10,000 rounds (a few hundred microseconds) before
// sleeping, 0.75 of that. While other programs hold the cores, the solves drop to the threads that
// fit (analytic/adaptive_threads.hpp), so their threads wait little.
//
// Huge pages are not asked for (GLIBC_TUNABLES=glibc.malloc.hugetlb=1 was the default until
// 2026-12-06; a user may still set it). Where a virtual machine hands its free memory back to the
// host in 2 MB blocks (free page reporting), every huge page is fresh memory to the host, and its
// first touch cost 4-20 ms: 1 GiB took 2.5-10 s where 4 KiB pages took 0.46 s, and `solve --json
// --full-chain` at K = 22 took 1.73 times as long (26.2 s against 15.3 s, 20.6 s in the kernel).
// Where the host keeps the memory, huge pages saved a tenth (fewer TLB misses), not worth risking
// nearly twice the time.
namespace crawlq::app {

// Returns only when both are set (or starting again failed, and the program runs as it is).
void start_with_runtime_settings(char** argv);

}  // namespace crawlq::app
