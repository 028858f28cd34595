#pragma once
// The acyclic phase-type law of fewest phases with three given moments.
//
// Bobbio, Horvath and Telek (2005) show that whenever an acyclic law of order n has the moments,
// one of two canonical forms of order n has them too, X = V + B U or X = U + B V: V exponential,
// U Erlang of n - 1 phases, B a coin of probability p. For mean 1, m2 fixes p (the first form) or
// V's mean (the second) as a function of U's mean r alone, so m3 is a function of r: its roots,
// found by a scan of r and bisection, are the laws. Orders are tried from 1 up, each root's
// moments checked against the ones asked for.
#include <optional>

#include "model/linear_algebra.hpp"

namespace crawlq::fit {

struct AcyclicLaw {
  model::RowVector beta;
  model::Matrix s;
};

// The law of mean 1 with E[X^2] = n2 and E[X^3] = n3, of at most most_phases phases, each moment
// within 1e-10 (relative); nullopt when no acyclic law of that many phases has them.
std::optional<AcyclicLaw> fewest_phase_law(double n2, double n3, int most_phases);

}  // namespace crawlq::fit
