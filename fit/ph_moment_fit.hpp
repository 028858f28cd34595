#pragma once
// A phase-type law matched to three moments, as the paper fits its service time (a hyperexponential
// from three moments of the content size, section 7).
//
// The law is the acyclic one of fewest phases (fit/fewest_phase_fit.hpp), up to 100 phases: one
// for an exponential's moments, two wherever an order-2 law has them (the paper's hyperexponential
// among them). Past 100, a mixture of two laws of one shape with means x and y, weights p and
// 1 - p: two Erlang-k laws, k the smallest with scv >= 1/k that reaches m3 (up to 100). Dividing
// the moments by the shape's factors leaves b_1, b_2, b_3, the moments of a two-point law on {x,
// y}: x and y are the roots of t^2 - s t + q with s = (b_3 - b_1 b_2) / (b_2 - b_1^2), q = s b_1 -
// b_2 (Prony), and p = (b_1 - y)/(x - y). Moments that need more phases, or are no law's (m1 m3 <
// m2^2), are out of reach; then the first two are matched (Tijms' Erlang(k-1)/Erlang(k) mixture,
// or balanced means), or below scv 1/100 the mean alone (Erlang-100), and the note says so.
#include <string>
#include <vector>

#include "fit/phase_type_moments.hpp"
#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct PhaseTypeFit {
  model::RowVector beta;
  model::Matrix s;
  bool third_moment_matched = true;
  std::string note;
};

// m1 > 0, m2 > m1^2 (a positive variance; m2 == m1^2 is a constant, which no PH is), m1 within
// fit/time_scale.hpp's range; InputError otherwise. A scv below 1/100 gets Erlang-100 and a note.
PhaseTypeFit fit_three_moments(double m1, double m2, double m3);

// The sample's raw moments E[X^n], n = 1..count.
std::vector<double> sample_moments(const std::vector<double>& sample, int count);
// sum log(beta exp(S x) S_0) over the sample.
double phase_type_log_likelihood(const model::RowVector& beta, const model::Matrix& s,
                                 const std::vector<double>& sample);

}  // namespace crawlq::fit
