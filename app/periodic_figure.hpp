#pragma once
// `solve --plot FILE.svg` on a scenario with a rhythm: the period piece by piece. Each piece's
// averages hold over the piece, so they are drawn as steps: the fates of the pages offered in the
// piece (lost, later served, later stale) on the left axis, and the mean pages in the system, the
// mean active robots and the arrival scale on the right.
#include "analytic/transient/periodic_regime.hpp"
#include "model/model.hpp"
#include "output/gnuplot_figure.hpp"

namespace crawlq::app {

output::Figure periodic_figure(const model::Model& model, const analytic::PeriodicRegime& regime);

}  // namespace crawlq::app
