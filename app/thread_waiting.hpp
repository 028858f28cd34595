#pragma once
// OpenMP threads that wait for the next parallel region by spinning hold a core that another
// program may need: on two cores with one kept busy, a solve on two threads took 14 times as long
// as on one (K = 16 --sojourn: 16.4 s against 1.2 s), and 1.16 s with the threads waiting
// passively. libgomp reads OMP_WAIT_POLICY when it loads, before main, so the program starts itself
// again with PASSIVE unless the user chose a policy.
namespace crawlq::app {

// Returns only when the policy is set (or starting again failed, and the program runs as it is).
void wait_without_spinning(char** argv);

}  // namespace crawlq::app
