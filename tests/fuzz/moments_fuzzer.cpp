// libFuzzer harness of the three-moment fit (fit/ph_moment_fit.cpp, as `crawlq fit service
// --moments m1,m2,m3` runs it): the input's bytes are three doubles, any bit patterns (infinities,
// NaN, subnormals, 1e308). A law comes out whose beta is a distribution, whose rates are finite and
// whose moments are finite, or a model::InputError (refusal_check.hpp); anything else fails the
// run.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fit/ph_moment_fit.hpp"
#include "tests/fuzz/refusal_check.hpp"

namespace {

[[noreturn]] void broken(const char* what, const double* m) {
  std::fprintf(stderr, "moments %.17g, %.17g, %.17g: %s\n", m[0], m[1], m[2], what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3 * sizeof(double)) return 0;
  double m[3];
  std::memcpy(m, data, sizeof(m));
  try {
    const crawlq::fit::PhaseTypeFit ph = crawlq::fit::fit_three_moments(m[0], m[1], m[2]);
    if (ph.s.rows() > 200 || ph.s.rows() != ph.beta.size())
      broken("more phases than the fit allows", m);
    if (!ph.s.allFinite()) broken("a rate is not finite", m);
    if (!((ph.beta.array() >= 0).all()) || std::abs(ph.beta.sum() - 1) > 1e-9)
      broken("beta is no distribution", m);
    const auto fitted = crawlq::fit::phase_type_moments(ph.beta, ph.s, 3);
    if (!std::isfinite(fitted[0]) || std::abs(fitted[0] / m[0] - 1) > 1e-6)
      broken("the mean is not matched", m);
    if (!ph.third_moment_matched && ph.note.empty()) broken("a moment unmatched without a note", m);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {});
  }
  return 0;
}
