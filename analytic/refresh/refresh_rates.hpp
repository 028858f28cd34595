#pragma once
// Exact obsolescence rates of page refresh (Coffman, Liu, Weber 1998: CLW below): CLW Lemma 3.1
// for one interaccess interval, CLW (3) for a cyclic policy, CLW Lemma 4.1 for a randomized one.
//
// Every rate is written as r = delta + kappa * s with delta, kappa of model::LaplaceValue and s in
// [0, 1] a sum of non-negative terms, so that no formula subtracts nearly equal numbers, divides by
// 1 - h or raises h to a power: the paper's forms lose every digit as mu_i E[X] -> 0 (r_i -> 0) and
// turn into 0/0 once h_i underflows (mu_i E[X] >~ 745, where a page is stale almost surely after
// each read and r_i -> 1 - f_i / (mu_i E[X])).
#include <vector>

#include "model/refresh_model.hpp"

namespace crawlq::analytic {

// h_i = E exp(-mu_i X) for every page, as model::LaplaceValue.
std::vector<model::LaplaceValue> access_laplace_values(const model::RefreshModel& model);
// The plain h_i (0 where it underflows), for reports.
std::vector<double> laplace_transforms(const std::vector<model::LaplaceValue>& values);

// phi(y) = 1 - (1 - e^{-y}) / y in [0, 1): the obsolescence rate of a page changing at rate mu and
// read exactly every y / mu time units; phi(0) = 0, phi(inf) = 1.
double evenly_spaced_staleness(double y);

// CLW Lemma 3.1: E[Z] = d E[X] - (1 - h^d) / mu, the expected stale time of a page over `distance`
// reads, as E[X] d (delta + kappa phi(d l)).
double expected_stale_time(const model::LaplaceValue& v, double mean_access, long distance);

// CLW (3): r_i = sum over page i's reads in one cycle of E[Z] (the distance to its next read,
// circularly), divided by K E[X]: r_i = delta_i + kappa_i sum_j (d_j / K) phi(d_j l_i). Every page
// must appear.
std::vector<double> cyclic_obsolescence_rates(const model::RefreshModel& model,
                                              const std::vector<model::LaplaceValue>& values,
                                              const std::vector<int>& cycle);

// CLW Lemma 4.1: r_i = 1 - f_i / (mu_i E[X]) + f_i / (mu_i E[X]) * f_i h_i / (1 - h_i + f_i h_i),
// as r_i = delta_i + kappa_i ((1 - f_i)(1 - h_i) + f_i phi(l_i)) / (1 - h_i + f_i h_i). A page of
// frequency 0 is never read: r_i = 1.
double randomized_obsolescence_rate(const model::LaplaceValue& v, double frequency);
std::vector<double> randomized_obsolescence_rates(const model::RefreshModel& model,
                                                  const std::vector<model::LaplaceValue>& values,
                                                  const std::vector<double>& frequencies);

// CLW Theorem 3.3's bound for a page read with frequency x, evenly spaced:
// 1 - x / (mu E[X]) + x / (mu E[X]) h^{1/x} = delta + kappa phi(l / x); 1 for x = 0.
double evenly_spaced_obsolescence_rate(const model::LaplaceValue& v, double frequency);

// Reads of each page per read of the cycle.
std::vector<double> cycle_frequencies(const std::vector<int>& cycle, int pages);

// CLW (4): C = sum c_i r_i.
double refresh_cost(const model::RefreshModel& model, const std::vector<double>& rates);
// C / C' for two rate vectors of one model, computed so that it stays finite where both costs
// underflow (weights and rates both tiny).
double cost_ratio(const model::RefreshModel& model, const std::vector<double>& rates,
                  const std::vector<double>& other_rates);

}  // namespace crawlq::analytic
