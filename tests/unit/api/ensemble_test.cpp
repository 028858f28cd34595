// solve and optimize over a set of models (--ensemble): the spread of each measure, the decision's
// stability and the regret, checked against each member solved and searched alone, and the refusals
// of sets that are not sets of models over the same states.
#include "api/ensemble.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "api/json_output.hpp"
#include "api/optimize_request.hpp"
#include "api/solve_request.hpp"
#include "model/input_error.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq {
namespace {

const std::string kPaper = std::string(CRAWLQ_SOURCE_DIR) + "/scenarios/data/paper-example-1.yaml";

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The paper's example with one piece of its text replaced, written in a fresh directory.
class Variants {
 public:
  Variants() : dir_(std::filesystem::temp_directory_path() / ("crawlq-ensemble-" + unique())) {
    std::filesystem::create_directories(dir_);
  }
  ~Variants() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& from, const std::string& to) {
    std::string text = text_of(kPaper);
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string dir() const { return dir_.string(); }

 private:
  static std::string unique() {
    static int count = 0;
    return std::to_string(::getpid()) + "-" + std::to_string(count++);
  }
  std::filesystem::path dir_;
};

api::SolveRequest solve_request(const std::string& file, const std::string& ensemble = "") {
  const scenarios::Scenario s = scenarios::load_scenario(file);
  return {.source = file, .model = s.model, .policy = *s.model.policy, .ensemble = ensemble};
}

api::OptimizeRequest optimize_request(const std::string& file, const std::string& ensemble = "") {
  return {.source = file, .model = scenarios::load_scenario(file).model, .ensemble = ensemble};
}

TEST_CASE(
    "ensemble spread: mean, sd, the 5% and 95% quantiles and the extremes, with no number left out",
    "[api][ensemble]") {
  const nlohmann::json j = api::spread_json(2.5, {5, 1, 4, 2, 3});
  CHECK(j.at("point") == 2.5);
  CHECK(j.at("mean").get<double>() == Approx(3));
  CHECK(j.at("sd").get<double>() == Approx(std::sqrt(2.5)));
  CHECK(j.at("low").get<double>() == Approx(1.2));   // 0.05 x 4 = 0.2 of the way from 1 to 2
  CHECK(j.at("high").get<double>() == Approx(4.8));  // 3.8: 0.8 of the way from 4 to 5
  CHECK(j.at("min") == 1.0);
  CHECK(j.at("max") == 5.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(api::spread_json(1, {nan, 7, 9}).at("mean").get<double>() == Approx(8));
  const nlohmann::json none = api::spread_json(nan, {nan});
  CHECK(none.at("point").is_null());
  CHECK(none.at("sd").is_null());
}

TEST_CASE("solve --ensemble of identical models: every interval has zero width at the point",
          "[api][ensemble]") {
  const api::SolveRequest request = solve_request(kPaper, kPaper + "," + kPaper + "," + kPaper);
  const nlohmann::json j = api::to_json(request, api::solve(request));
  const nlohmann::json& e = j.at("ensemble");
  CHECK(e.at("members") == 3);
  for (const auto& [key, spread] : e.at("measures").items()) {
    INFO(key);
    if (spread.at("point").is_null()) continue;
    const double point = spread.at("point");
    CHECK(point == Approx(j.at(key).get<double>()).epsilon(1e-12));
    CHECK(spread.at("sd").get<double>() <= 1e-9 * std::max(1.0, std::abs(point)));
    CHECK(spread.at("low").get<double>() == Approx(point).epsilon(1e-10));
    CHECK(spread.at("high").get<double>() == Approx(point).epsilon(1e-10));
  }
}

TEST_CASE("solve --ensemble: each member as solved alone under the request's policy",
          "[api][ensemble]") {
  Variants files;
  // A dearer robot: the cost moves, the other measures do not.
  const std::string slower =
      files.write("a.yaml", "costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 20",
                  "costs: {loss: 5, obsolescence: 10, sojourn: 2, robot: 31");
  api::SolveRequest request = solve_request(kPaper, slower + "," + kPaper);
  // The request's policy, not the files' own (thresholds -1, 2, 2).
  request.policy =
      scenarios::parse_policy("policy:\n  levels: [2, 2, 1, 1, 1, 1]\n", "test", request.model);
  const api::SolveResult result = api::solve(request);
  const nlohmann::json& e = *result.ensemble;
  // The member alone, under the point's policy (its own file's is the same here).
  api::SolveRequest alone = solve_request(slower);
  alone.policy = request.policy;
  const double cost_alone = api::solve(alone).evaluation.measures.cost;
  const double cost_point = result.evaluation.measures.cost;
  REQUIRE(cost_alone > cost_point + 1);
  CHECK(e.at("files") == nlohmann::json::array({slower, kPaper}));
  CHECK(e.at("by_member")[0].at("cost").get<double>() == Approx(cost_alone).epsilon(1e-10));
  CHECK(e.at("measures").at("cost").at("max").get<double>() == Approx(cost_alone).epsilon(1e-10));
  CHECK(e.at("measures").at("cost").at("min").get<double>() == Approx(cost_point).epsilon(1e-10));
  CHECK(e.at("measures").at("cost").at("mean").get<double>() ==
        Approx((cost_alone + cost_point) / 2).epsilon(1e-10));
  // The costs' weights move the cost alone.
  CHECK(e.at("measures").at("p_loss").at("sd").get<double>() < 1e-12);
  CHECK(e.at("by_member")[1].at("p_loss").get<double>() ==
        Approx(result.evaluation.measures.p_loss).epsilon(1e-10));
  CHECK(std::abs(api::solve(solve_request(kPaper)).evaluation.measures.p_loss -
                 result.evaluation.measures.p_loss) > 1e-5);
}

TEST_CASE(
    "optimize --ensemble: the decision's stability and the regret of keeping the point's best, "
    "each member searched alone",
    "[api][ensemble]") {
  Variants files;
  // A robot at a sixth of the price: more robots pay, and the best policy changes.
  const std::string cheap =
      files.write("cheap.yaml", "sojourn: 2, robot: 20", "sojourn: 2, robot: 3.5");
  const api::OptimizeRequest request = optimize_request(kPaper, kPaper + "," + cheap + "," + cheap);
  const api::OptimizeResult result = api::optimize(request);
  const nlohmann::json j = api::to_json(request, result);
  const nlohmann::json& e = j.at("ensemble");
  const api::BestPolicy point = api::best_of(result);
  const api::BestPolicy cheap_best = api::best_of(api::optimize(optimize_request(cheap)));
  api::SolveRequest kept = solve_request(cheap);
  kept.policy = point.policy;
  const double kept_cost = api::solve(kept).evaluation.measures.cost;
  REQUIRE(kept_cost > cheap_best.cost + 1e-6);  // the cheap robot's best is another policy
  CHECK(e.at("stability").get<double>() == Approx(1.0 / 3));
  REQUIRE(e.at("decisions").size() == 2);
  CHECK(e.at("decisions")[0].at("share").get<double>() == Approx(2.0 / 3));
  CHECK_FALSE(e.at("decisions")[0].at("point").get<bool>());
  CHECK(e.at("decisions")[1].at("point").get<bool>());
  CHECK(e.at("decisions")[1].at("policy") == api::control_policy_json(point.policy));
  const double regret = kept_cost - cheap_best.cost;
  CHECK(e.at("regret").at("mean").get<double>() == Approx(2 * regret / 3).epsilon(1e-9));
  CHECK(e.at("regret").at("max").get<double>() == Approx(regret).epsilon(1e-9));
  CHECK(e.at("regret").at("relative_mean").get<double>() ==
        Approx(2 * regret / cheap_best.cost / 3).epsilon(1e-9));
  CHECK(e.at("best_cost").at("min").get<double>() == Approx(cheap_best.cost).epsilon(1e-10));
  CHECK(e.at("best_cost").at("max").get<double>() == Approx(point.cost).epsilon(1e-10));
  CHECK(e.at("point_policy_cost").at("max").get<double>() ==
        Approx(std::max(kept_cost, point.cost)).epsilon(1e-10));
  // Identical models: the decision never moves and keeping it costs nothing.
  const api::OptimizeRequest same = optimize_request(kPaper, kPaper + "," + kPaper);
  const nlohmann::json s = *api::optimize(same).ensemble;
  CHECK(s.at("stability") == 1.0);
  CHECK(s.at("regret").at("max").get<double>() == 0);
  CHECK(s.at("best_cost").at("sd").get<double>() == 0);
}

TEST_CASE("ensemble refusals: fewer than two models, a file that does not load, other states",
          "[api][ensemble]") {
  Variants files;
  const auto refused = [](const std::string& ensemble, const std::string& says) {
    INFO(ensemble);
    CHECK_THROWS_WITH(api::solve(solve_request(kPaper, ensemble)), Catch::Contains(says));
  };
  refused(kPaper, "--ensemble");
  refused(files.dir(), "holds 0 scenario files");
  refused(kPaper + "," + files.dir() + "/absent.yaml", "absent.yaml");
  // A model the request's policy does not fit (thresholds up to 2 in a buffer of 1 page).
  const std::string shorter = files.write("shorter.yaml", "capacity: 5", "capacity: 1");
  refused(kPaper + "," + shorter, "shorter.yaml");
}

TEST_CASE("ensemble: a directory's scenario files in name order, other files left aside",
          "[api][ensemble]") {
  Variants files;
  files.write("b.yaml", "robot: 20", "robot: 22");
  files.write("a.yml", "robot: 20", "robot: 21");
  std::ofstream(files.dir() + "/notes.txt") << "not a scenario\n";
  const std::vector<api::EnsembleMember> members =
      api::read_ensemble(files.dir(), api::Caller::kPython);
  REQUIRE(members.size() == 2);
  CHECK(members[0].file == files.dir() + "/a.yml");
  CHECK(members[0].model.costs.robot == 21);
  CHECK(members[1].model.costs.robot == 22);
  CHECK_THROWS_WITH(api::read_ensemble(kPaper, api::Caller::kPython), Catch::Contains("ensemble="));
}

}  // namespace
}  // namespace crawlq
