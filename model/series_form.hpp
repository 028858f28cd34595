#pragma once
// The canonical series form of a phase-type law (Cumani 1982, "canonical form 1"): phases 0..n-1 at
// rates lambda_0 <= ... <= lambda_{n-1}, the eigenvalues of -T with their multiplicities, passed
// through in order and left for absorption from the last; the time starts in phase i with
// probability beta_i. The same law as (alpha, T) whenever it exists: every acyclic law has it (its
// eigenvalues are T's diagonal) and so does every two-phase law; a law whose moves go round has it
// only where -T's eigenvalues are real and beta comes out nonnegative.
//
// beta_i = alpha w_i, where w_{n-1} = t / lambda_{n-1} and w_{i-1} = (T + lambda_i I) w_i /
// lambda_{i-1} (t = -T e): the columns of V with T V = V B, V e = e for the series' bidiagonal
// generator B, by Cayley-Hamilton (He and Zhang 2006 write the same vectors as spectral
// polynomials).
#include <optional>
#include <vector>

#include "model/phase_type.hpp"

namespace crawlq::model {

struct SeriesForm {
  std::vector<double> rates;  // ascending: the slowest phase first, the last the fastest
  std::vector<double> start;  // beta, summing to 1
};

// Nothing where -T has complex eigenvalues, or where the form found misses the law's first three
// moments by more than round-off: beta would need a negative entry, or the recursion lost
// eigenvalues clustered too tightly.
std::optional<SeriesForm> series_form(const PhaseType& law);

}  // namespace crawlq::model
