#pragma once
// Exact obsolescence rates of page refresh (Coffman, Liu, Weber 1998): Lemma 3.1 for one interaccess
// interval, (3) for a cyclic policy, Lemma 4.1 for a randomized one.
#include <vector>

#include "model/refresh_model.hpp"

namespace crawlq::analytic {

// h_i = E exp(-mu_i X) for every page.
std::vector<double> access_laplace_values(const model::RefreshModel& model);

// Lemma 3.1: E[Z] = d E[X] - (1 - h^d) / mu, the expected stale time of a page over `distance` reads.
double expected_stale_time(double mu, double h, double mean_access, long distance);

// (3): r_i = sum over page i's reads in one cycle of E[Z] (the distance to its next read, circularly),
// divided by K E[X]. Every page must appear in the cycle.
std::vector<double> cyclic_obsolescence_rates(const model::RefreshModel& model, const std::vector<double>& h,
                                              const std::vector<int>& cycle);

// Lemma 4.1: r_i = 1 - f_i / (mu_i E[X]) + f_i / (mu_i E[X]) * f_i h_i / (1 - h_i + f_i h_i).
std::vector<double> randomized_obsolescence_rates(const model::RefreshModel& model, const std::vector<double>& h,
                                                  const std::vector<double>& frequencies);

// Reads of each page per read of the cycle.
std::vector<double> cycle_frequencies(const std::vector<int>& cycle, int pages);

// (4): C = sum c_i r_i.
double refresh_cost(const model::RefreshModel& model, const std::vector<double>& rates);

}  // namespace crawlq::analytic
