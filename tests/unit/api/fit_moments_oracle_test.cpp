// `fit service SAMPLE --json`'s sample keys against a sample added up by hand, and its fitted law's
// moments against the same hand values (the fit promises to match three moments): {1, 2, 4} has
// m1 = 7/3, m2 = 7, m3 = 73/3 and scv = m2 / m1^2 - 1 = 2/7.
#include <catch2/catch.hpp>
#include <vector>

#include "api/fit_request.hpp"

namespace crawlq {
namespace {

TEST_CASE(
    "fit JSON: the sample's moments and scv and the fitted moments of {1, 2, 4} are the hand "
    "values",
    "[api][fit]") {
  api::FitLawRequest request;
  request.source = "three.txt";
  request.sample = {1.0, 2.0, 4.0};
  const nlohmann::json j = api::fit_law(request);
  const std::vector<double> hand{7.0 / 3.0, 7.0, 73.0 / 3.0};
  const auto& sample = j.at("sample");
  CHECK(sample.at("mean").get<double>() == Approx(hand[0]).epsilon(1e-14));
  CHECK(sample.at("scv").get<double>() == Approx(2.0 / 7.0).epsilon(1e-12));
  const auto moments = sample.at("moments").get<std::vector<double>>();
  REQUIRE(moments.size() == 3);
  for (std::size_t n = 0; n < 3; ++n) {
    INFO("m" << n + 1);
    CHECK(moments[n] == Approx(hand[n]).epsilon(1e-14));
  }
  const auto fitted = j.at("fitted").at("moments").get<std::vector<double>>();
  REQUIRE(fitted.size() == 3);
  // The third only where the fit says it matched it (a low scv leaves m3 to the Erlang shape).
  const std::size_t matched = j.at("fitted").at("third_moment_matched").get<bool>() ? 3 : 2;
  for (std::size_t n = 0; n < matched; ++n) {
    INFO("fitted m" << n + 1);
    CHECK(fitted[n] == Approx(hand[n]).epsilon(1e-9));
  }
}

}  // namespace
}  // namespace crawlq
