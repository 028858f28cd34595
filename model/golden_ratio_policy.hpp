#pragma once
// The golden-ratio accessing policy of section 5 (after Itai and Rosberg 1984): a cycle of F_k
// reads in which page i is read M_i times, floor(f_i F_k) <= M_i <= ceil(f_i F_k), sum M_i = F_k,
// and the reads are spread as the points frac(j / phi), j = 0..F_k-1, spread over [0, 1).
#include <vector>

namespace crawlq::model {

// The counts M_i: largest remainders, with every page read at least once when F_k >= N allows it.
// Throws std::invalid_argument when F_k is smaller than the number of pages.
std::vector<long> golden_ratio_counts(const std::vector<double>& frequencies, long cycle);

// One cycle: page i owns the indices j in [M_1 + ... + M_{i-1}, M_1 + ... + M_i); the s-th read of
// the cycle goes to the owner of the j with the s-th smallest frac(j / phi).
std::vector<int> golden_ratio_cycle(const std::vector<long>& counts);

// The Fibonacci cycle used when the file names none: the smallest F_k >= 20 N (so that every f_i
// F_k is large enough for the rounding to stay close to f_i), at least 144.
long default_golden_ratio_cycle(int pages);

}  // namespace crawlq::model
