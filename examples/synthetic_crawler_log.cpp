// A crawler's delivery log from a known correlated BMAP: the shipped example of `crawlq fit
// arrivals` (scenarios/logs/synthetic-crawler.log is this program's output with its defaults).
//
// The crawler alternates between a slow regime (batches every 400 s on average) and a busy one
// (every 60 s); the times between batches are Erlang-4 within a regime, and after each batch the
// regime is drawn afresh with probability 0.03 (otherwise kept), so the times between batches are
// strongly correlated, as section 7's real log was (lag-1 0.62 there). A batch holds 1, 2, 3 or 4
// pages with probabilities 0.45, 0.3, 0.15, 0.1, delivered 1 ms apart. After the 3000th batch the
// crawler stops for a day (86,400 s), which `fit` leaves out as a censored gap. Times are printed
// in seconds with millisecond resolution, one a line. Usage: synthetic_crawler_log [batches] [seed]
// (defaults 6000 and 2011)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

int main(int argc, char** argv) {
  const long batches = argc > 1 ? std::atol(argv[1]) : 6000;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2011;
  if (batches < 2) {
    std::fprintf(stderr, "synthetic_crawler_log: give at least 2 batches\n");
    return 2;
  }
  // std::mt19937_64 and hand-written draws (no std:: distributions, whose algorithms differ between
  // libraries): the same log on every machine.
  std::mt19937_64 engine(seed);
  const auto uniform = [&engine] {
    return (static_cast<double>(engine() >> 11) + 0.5) / 9007199254740992.0;
  };
  const double regime_mean[2] = {400, 60};
  const double size_cumulative[4] = {0.45, 0.75, 0.9, 1.0};
  int regime = 0;
  double time = 0;
  for (long b = 0; b < batches; ++b) {
    for (int phase = 0; phase < 4; ++phase) time += -std::log(uniform()) * regime_mean[regime] / 4;
    const double u = uniform();
    int size = 1;
    while (size < 4 && u > size_cumulative[size - 1]) ++size;
    for (int k = 0; k < size; ++k) std::printf("%.3f\n", time + 0.001 * k);
    if (uniform() < 0.03) regime = uniform() < 0.5 ? 0 : 1;
    if (b == 2999) time += 86400;
  }
  return 0;
}
