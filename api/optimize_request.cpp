#include "api/optimize_request.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

#include "analytic/control/table_summary.hpp"
#include "analytic/stationary/clock_lumping.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "api/ensemble.hpp"
#include "api/json_output.hpp"
#include "api/periodic_optimize.hpp"
#include "api/request_checks.hpp"
#include "api/state_table.hpp"
#include "model/input_error.hpp"
#include "output/output_file.hpp"
#include "scenarios/policy_section.hpp"

namespace crawlq::api {

const std::vector<PolicyClass>& policy_classes() {
  static const std::vector<PolicyClass> all = kPolicyClassNames.values();
  return all;
}

const char* policy_class_name(PolicyClass policy_class) {
  return kPolicyClassNames.name(policy_class).data();
}

PolicyClass parse_policy_class(const std::string& name, Caller caller) {
  try {
    return kPolicyClassNames.parse(name);
  } catch (const std::invalid_argument& e) {
    throw model::InputError(std::string(field_name(caller, Field::kClass)), e.what());
  }
}

bool OptimizeRequest::is_valid(std::string* why) const {
  std::string problem;
  const std::string local = field_given(caller, Field::kSearch, "local");
  const auto class_given = [this](PolicyClass c) {
    return field_given(caller, Field::kClass, policy_class_name(c));
  };
  if (policy_class == PolicyClass::kLevels && search == analytic::Search::kLocal)
    problem = fmt::format("{}: searches the threshold class only; {} enumerates every map", local,
                          class_given(PolicyClass::kLevels));
  else if (search == analytic::Search::kLocal && policy_class != PolicyClass::kThresholds &&
           policy_class != PolicyClass::kAll && policy_class != PolicyClass::kMarkov)
    problem =
        fmt::format("{}: chooses how the threshold class is searched; {} searches its own way",
                    local, class_given(policy_class));
  else if (!export_policy.empty() && policy_class == PolicyClass::kAll)
    problem = fmt::format("{}: {} finds one best policy per class; export one class's best",
                          field_given(caller, Field::kExportPolicy, export_policy),
                          class_given(PolicyClass::kAll));
  else if (starts < 0)
    problem = fmt::format("{}: {} is negative (give a count of grid vectors, 0 for all)",
                          field_name(caller, Field::kStarts), starts);
  else if (threads < 0)
    problem = fmt::format("{}: {}: must be 0 (all cores) or more",
                          field_name(caller, Field::kThreads), threads);
  return model::valid_unless(std::move(problem), why);
}

namespace {

// The best policy where --export-policy names, in a form `--policy FILE` and scenario files read:
// a table as CSV (one line per state), any other form as YAML with a `policy:` section.
void export_policy(const OptimizeRequest& request, const model::ControlPolicy& policy) {
  if (request.export_policy.empty()) return;
  const std::string label = "--export-policy " + request.export_policy;
  if (const auto* table = std::get_if<model::TablePolicy>(&policy)) {
    write_state_table(request.export_policy, label, analytic::StateSpace(request.model), "robots",
                      [table](Eigen::Index x) {
                        return std::to_string(table->robots[static_cast<std::size_t>(x)]);
                      });
    return;
  }
  // The section as YAML's flow style writes it: the JSON of each value, which YAML reads as is.
  std::string section;
  const nlohmann::json written = scenarios::policy_section(policy);
  for (const auto& [key, value] : written.items())
    section += fmt::format("  {}: {}\n", key, value.dump());
  output::write_whole_file(
      request.export_policy,
      fmt::format("# The best policy of `crawlq optimize {} --class {}`; give it as --policy {}\n"
                  "policy:\n{}",
                  request.source, policy_class_name(request.policy_class), request.export_policy,
                  section),
      label);
}

// The per-piece best as a scenario's `policy: {by_piece: [...]}` section.
void export_piece_policies(const OptimizeRequest& request,
                           const analytic::PeriodicThresholdSearch& search) {
  if (request.export_policy.empty()) return;
  std::string pieces;
  for (const std::vector<int>& t : search.by_piece)
    pieces += fmt::format("    - {{thresholds: [{}]}}\n", fmt::join(t, ", "));
  output::write_whole_file(
      request.export_policy,
      fmt::format("# The best threshold vector per piece of the rhythm, `crawlq optimize {}`; "
                  "put it in the scenario (one vector for the whole period, cost {:.6g}: "
                  "thresholds [{}])\npolicy:\n  by_piece:\n{}",
                  request.source, search.single_cost, fmt::join(search.single, ", "), pieces),
      "--export-policy " + request.export_policy);
}

analytic::TableClass table_class_of(PolicyClass c) {
  return c == PolicyClass::kMemory ? analytic::TableClass::kMemory
                                   : analytic::TableClass::kPhaseAware;
}

nlohmann::json table_best_json(const analytic::TableClassSearch& search) {
  return class_best_json(search.best->policy, search.best->measures.cost);
}

}  // namespace

namespace {

// Refuses, before the evaluator is built, a search whose least work (search_work.hpp) is beyond
// what one request may take, naming its count: the same check for every front end.
void require_optimize_fits(const OptimizeRequest& request, const model::Model& searched) {
  const int n = searched.modes(), capacity = searched.capacity;
  switch (request.policy_class) {
    case PolicyClass::kThresholds: {
      const analytic::Search search = analytic::choose_search(request.search, searched);
      const analytic::SearchWork local =
          analytic::least_threshold_work(searched, analytic::Search::kLocal);
      const std::string advice =
          local_search_advice(request.caller, search == analytic::Search::kExhaustive, local);
      require_search_fits(
          searched, request.source,
          fmt::format("{} {}{}", field_given(request.caller, Field::kClass, "thresholds"),
                      field_given(request.caller, Field::kSearch, analytic::search_name(search)),
                      request.search == analytic::Search::kAuto ? " (auto)" : ""),
          [&](const model::Model& m) { return analytic::least_threshold_work(m, request.search); },
          advice);
      return;
    }
    case PolicyClass::kLevels: {
      // More maps than --max-maps: optimize_levels refuses them by their count before building any.
      if (const auto maps = analytic::level_map_count(n, capacity);
          !maps || *maps > request.max_maps)
        return;
      const analytic::SearchWork thresholds =
          analytic::least_threshold_work(searched, analytic::Search::kAuto);
      require_search_fits(searched, request.source,
                          field_given(request.caller, Field::kClass, "levels"),
                          analytic::level_map_work,
                          thresholds.work <= analytic::kMostSearchWork
                              ? "give " + field_given(request.caller, Field::kClass, "thresholds")
                              : "");
      return;
    }
    case PolicyClass::kPhaseAware:
    case PolicyClass::kMemory:
    case PolicyClass::kMarkov:
    case PolicyClass::kAll:
      require_class_search_fits(searched, request.source, policy_class_name(request.policy_class),
                                request.search, request.max_maps, request.caller);
      return;
  }
}

}  // namespace

namespace {
// What a rhythm's search takes: the thresholds class alone, no ensemble.
void check_periodic(const OptimizeRequest& request) {
  if (request.policy_class != PolicyClass::kThresholds)
    throw model::InputError(
        field_given(request.caller, Field::kClass, policy_class_name(request.policy_class)),
        "under a rhythm optimize searches threshold vectors (one for the whole period, and one "
        "per piece of it): give the thresholds class");
  if (!request.ensemble.empty())
    throw model::InputError(
        field_given(request.caller, Field::kEnsemble, request.ensemble),
        "an ensemble under a rhythm is not searched; crawlq optimize gives each model's day");
}
}  // namespace

model::Model answering_model(const OptimizeRequest& request) {
  const bool by_state =
      request.policy_class == PolicyClass::kMarkov || request.policy_class == PolicyClass::kAll;
  if (request.full_chain || by_state) return request.model;
  return analytic::lumped_clock_model(request.model).value_or(request.model);
}

analytic::MemoryEstimate check(const OptimizeRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  if (request.model.rhythm) check_periodic(request);
  const model::Model searched = searched_model(answering_model(request));
  require_exact_engine_fits(searched, request.source, request.method, request.caller);
  analytic::MemoryEstimate need = analytic::estimate_memory(searched);
  if (request.policy_class == PolicyClass::kMarkov || request.policy_class == PolicyClass::kAll) {
    const analytic::MemoryEstimate control = require_markov_control_fits(
        searched, request.source,
        field_given(request.caller, Field::kClass, policy_class_name(request.policy_class)));
    need.bytes = std::max(need.bytes, control.bytes);
  }
  require_optimize_fits(request, searched);
  return need;
}

BestPolicy best_of(const OptimizeResult& result) {
  return std::visit(
      model::Overloaded{[](const analytic::ThresholdSearch& s) {
                          return BestPolicy{s.best.policy, s.best.cost};
                        },
                        [](const analytic::LocalThresholdSearch& s) {
                          return BestPolicy{s.best.policy, s.best.cost};
                        },
                        [](const analytic::LevelSearch& s) {
                          return BestPolicy{s.best.policy, s.best.cost};
                        },
                        [](const analytic::TableClassSearch& s) {
                          return BestPolicy{s.best->policy, s.best->measures.cost};
                        },
                        [](const analytic::MarkovSearch& s) {
                          return BestPolicy{s.best->policy, s.best->measures.cost};
                        },
                        [](const analytic::ClassComparison& c) {
                          const auto least = std::min_element(
                              c.rows.begin(), c.rows.end(),
                              [](const analytic::ClassRow& a, const analytic::ClassRow& b) {
                                return a.cost < b.cost;
                              });
                          return BestPolicy{least->policy, least->cost};
                        },
                        [](const analytic::PeriodicThresholdSearch& s) {
                          return BestPolicy{model::Policy::from_thresholds(s.by_piece.front(),
                                                                           s.modes, s.capacity),
                                            s.by_piece_cost};
                        }},
      result.search);
}

namespace {
// Each member searched as the point was, and the point's best policy solved on it.
nlohmann::json optimize_ensemble(const OptimizeRequest& request, const BestPolicy& point,
                                 const std::vector<EnsembleMember>& members,
                                 const Cancellation* cancel) {
  std::vector<double> best_costs, kept_costs, regrets, relative_regrets;
  std::map<std::string, std::pair<nlohmann::json, int>> decisions;
  nlohmann::json files = nlohmann::json::array(), by_member = nlohmann::json::array();
  const std::string point_key = control_policy_json(point.policy).dump();
  for (std::size_t m = 0; m < members.size(); ++m) {
    if (request.progress)
      request.progress(fmt::format("the ensemble: model {} of {}", m + 1, members.size()));
    OptimizeRequest searched = request;
    searched.source = members[m].file;
    searched.model = members[m].model;
    searched.export_policy.clear();
    searched.ensemble.clear();
    searched.progress = {};
    const BestPolicy best = best_of(optimize(searched, cancel));
    const SolveRequest kept{.source = members[m].file,
                            .model = members[m].model,
                            .policy = point.policy,
                            .method = request.method,
                            .threads = request.threads,
                            .full_chain = request.full_chain,
                            .caller = request.caller};
    const double kept_cost = solve(kept, cancel).evaluation.measures.cost;
    best_costs.push_back(best.cost);
    kept_costs.push_back(kept_cost);
    regrets.push_back(kept_cost - best.cost);
    relative_regrets.push_back(best.cost > 0 ? (kept_cost - best.cost) / best.cost : 0.0);
    const nlohmann::json policy = control_policy_json(best.policy);
    auto& decision = decisions[policy.dump()];
    decision.first = policy;
    ++decision.second;
    files.push_back(members[m].file);
    by_member.push_back({{"file", members[m].file},
                         {"best", policy},
                         {"best_cost", best.cost},
                         {"point_policy_cost", kept_cost},
                         {"regret", kept_cost - best.cost}});
  }
  const double n = static_cast<double>(members.size());
  std::vector<std::pair<std::string, std::pair<nlohmann::json, int>>> ranked(decisions.begin(),
                                                                             decisions.end());
  // Most often best first; ties in the policies' own order, so that the list never depends on
  // anything but the answers.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  nlohmann::json listed = nlohmann::json::array();
  for (const auto& [key, decision] : ranked)
    listed.push_back(
        {{"policy", decision.first}, {"share", decision.second / n}, {"point", key == point_key}});
  const auto found = decisions.find(point_key);
  double mean_regret = 0, mean_relative = 0;
  for (std::size_t m = 0; m < regrets.size(); ++m) {
    mean_regret += regrets[m] / n;
    mean_relative += relative_regrets[m] / n;
  }
  return {{"members", members.size()},
          {"files", files},
          {"best_cost", spread_json(point.cost, best_costs)},
          {"point_policy_cost", spread_json(point.cost, kept_costs)},
          {"decisions", listed},
          {"stability", found == decisions.end() ? 0.0 : found->second.second / n},
          {"regret",
           {{"mean", mean_regret},
            {"max", *std::max_element(regrets.begin(), regrets.end())},
            {"relative_mean", mean_relative}}},
          {"by_member", by_member}};
}
}  // namespace

OptimizeResult optimize(const OptimizeRequest& request, const Cancellation* cancel) {
  check(request);
  // Read before the work: a member that does not load is refused at once.
  const std::vector<EnsembleMember> members = request.ensemble.empty()
                                                  ? std::vector<EnsembleMember>{}
                                                  : read_ensemble(request.ensemble, request.caller);
  const model::Model answering = answering_model(request);
  if (request.model.rhythm) {
    const auto began = std::chrono::steady_clock::now();
    analytic::PeriodicThresholdSearch periodic = optimize_periodic(answering, request.source,
                                                                   {.method = request.method,
                                                                    .search = request.search,
                                                                    .threads = request.threads,
                                                                    .starts = request.starts,
                                                                    .caller = request.caller,
                                                                    .progress = request.progress},
                                                                   cancel);
    export_piece_policies(request, periodic);
    return {
        .search = std::move(periodic),
        .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count()};
  }
  // The least work passed the check; the meter bounds what a descent does beyond it.
  analytic::WorkMeter meter(analytic::kMostSearchWork);
  const analytic::PolicyEvaluator evaluator(answering, request.method, 1, cancel);
  const auto start = std::chrono::steady_clock::now();
  auto search = [&]() -> decltype(OptimizeResult::search) {
    if (request.policy_class == PolicyClass::kPhaseAware ||
        request.policy_class == PolicyClass::kMemory) {
      analytic::TableClassSearch search = analytic::optimize_table_class(
          evaluator, table_class_of(request.policy_class),
          analytic::best_threshold(evaluator, request.search, request.threads, request.starts,
                                   &meter)
              .policy,
          analytic::kExhaustiveTables, request.threads, &meter);
      export_policy(request, search.best->policy);
      return search;
    }
    if (request.policy_class == PolicyClass::kAll)
      return analytic::compare_classes(evaluator, {.threads = request.threads,
                                                   .search = request.search,
                                                   .starts = request.starts,
                                                   .max_maps = request.max_maps,
                                                   .progress = request.progress,
                                                   .meter = &meter});
    if (request.policy_class == PolicyClass::kMarkov) {
      analytic::MarkovSearch markov =
          analytic::optimize_markov_policies(evaluator, {.threads = request.threads,
                                                         .search = request.search,
                                                         .starts = request.starts,
                                                         .progress = request.progress,
                                                         .meter = &meter});
      export_policy(request, markov.best->policy);
      return markov;
    }
    if (request.policy_class == PolicyClass::kLevels) {
      try {
        analytic::LevelSearch levels =
            analytic::optimize_levels(evaluator, request.max_maps, request.threads);
        export_policy(request, levels.best.policy);
        return levels;
      } catch (const std::invalid_argument& e) {
        throw model::InputError(request.source, e.what());
      }
    }
    const analytic::ThresholdSearchOptions options{
        .threads = request.threads, .warm_start = false, .starts = request.starts, .meter = &meter};
    if (analytic::choose_search(request.search, answering) == analytic::Search::kLocal) {
      analytic::LocalThresholdSearch local =
          analytic::optimize_thresholds_locally(evaluator, options);
      export_policy(request, local.best.policy);
      return local;
    }
    analytic::ThresholdSearch thresholds = analytic::optimize_thresholds(evaluator, options);
    export_policy(request, thresholds.best.policy);
    return thresholds;
  };
  try {
    OptimizeResult result{
        .search = search(),
        .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    if (!members.empty()) {
      const auto ensemble_start = std::chrono::steady_clock::now();
      result.ensemble = optimize_ensemble(request, best_of(result), members, cancel);
      result.seconds_ensemble =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - ensemble_start).count();
    }
    return result;
  } catch (const analytic::SearchBeyondBudget& e) {
    throw model::InputError(fmt::format(
        "{}: {}: {}; lower the capacity", request.source,
        field_given(request.caller, Field::kClass, policy_class_name(request.policy_class)),
        e.what()));
  } catch (const analytic::StationaryFailure& e) {
    if (cancel && *cancel) throw Cancelled();
    refuse_unconverged(searched_model(answering), request.source, e.summary(), request.caller);
  }
}

namespace {

nlohmann::json best_json(const analytic::PolicyCost& best) {
  nlohmann::json j = policy_json(best.policy);
  j["cost"] = best.cost;
  return j;
}

nlohmann::json markov_json(const OptimizeRequest& request, const analytic::MarkovSearch& search,
                           double seconds) {
  const analytic::PolicyEvaluation& best = *search.best;
  const auto& table = std::get<model::TablePolicy>(best.policy);
  const analytic::TableSummary summary =
      analytic::summarize_table(analytic::StateSpace(request.model), table.robots,
                                request.model.modes(), &best.stationary.probabilities);
  const double threshold_cost = search.threshold_best.cost;
  nlohmann::json j{
      {"class", "markov"},
      {"optimality", search.global ? "global" : "heuristic"},
      {"best",
       {{"cost", best.measures.cost},
        {"policy",
         {{"table", request.export_policy.empty() ? nlohmann::json(nullptr)
                                                  : nlohmann::json(request.export_policy)}}},
        // The robots most of each level and arrival phase's probability sees, and that share.
        {"by_level_and_phase", {{"robots", summary.robots}, {"share", summary.share}}}}},
      {"threshold_best", best_json(search.threshold_best)},
      {"gap", threshold_cost > 0 ? (threshold_cost - best.measures.cost) / threshold_cost : 0.0},
      {"lower_bound", search.lower_bound},
      {"improvement_steps", search.improvement_steps},
      {"states", best.stationary.probabilities.size()},
      {"threshold_search", search.threshold_search},
      {"seconds", seconds}};
  put_measures(j["best"]["measures"], best.measures);
  if (!search.global) {
    j["stand_in_holding"] = std::isnan(search.stand_in_holding)
                                ? nlohmann::json(nullptr)
                                : nlohmann::json(search.stand_in_holding);
    nlohmann::json tried = nlohmann::json::array();
    for (const auto& [holding, cost] : search.tried)
      tried.push_back({{"holding", holding}, {"cost", cost}});
    j["candidates"] = tried;
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const OptimizeRequest& request, const OptimizeResult& result) {
  const model::Model& model = request.model;
  const std::int64_t count = analytic::threshold_policy_count(model.modes(), model.capacity);
  nlohmann::json j = std::visit(
      model::Overloaded{
          [&](const analytic::ThresholdSearch& search) {
            nlohmann::json j{{"best", best_json(search.best)},
                             {"constant", search.constant},
                             {"by_modes", nlohmann::json::array()},
                             {"search", "exhaustive"},
                             {"optimality", "global"},
                             {"policies_solved", search.policies_solved},
                             {"threshold_policies", count},
                             {"seconds", result.seconds}};
            for (const auto& set : search.by_modes)
              j["by_modes"].push_back({{"modes", set.modes},
                                       {"thresholds", set.thresholds},
                                       {"levels", set.best.policy.levels()},
                                       {"cost", set.best.cost}});
            return j;
          },
          [&](const analytic::PeriodicThresholdSearch& search) {
            return periodic_search_json(request.model, search, result.seconds);
          },
          [&](const analytic::LocalThresholdSearch& search) {
            // No by_modes: the search never meets most mode sets' best (interface.md's key is left
            // out, as with --class levels, rather than filled with what the search happened to
            // visit).
            return nlohmann::json{{"best", best_json(search.best)},
                                  {"constant", search.constant},
                                  {"search", "local"},
                                  {"policies_solved", search.policies_solved},
                                  {"threshold_policies", count},
                                  {"start", best_json(search.start)},
                                  {"descents", search.descents},
                                  {"moves", search.moves},
                                  {"optimality", "local"},
                                  {"not_reported", {"by_modes"}},
                                  {"seconds", result.seconds}};
          },
          [&](const analytic::LevelSearch& search) {
            const bool threshold_is_best =
                search.best_threshold && search.best_threshold->cost <= search.best.cost;
            nlohmann::json j{{"best", best_json(search.best)},
                             {"threshold_is_best", threshold_is_best},
                             {"search", "exhaustive"},
                             {"policies_solved", search.policies_solved},
                             {"seconds", result.seconds}};
            if (search.best_threshold) j["best_threshold"] = best_json(*search.best_threshold);
            return j;
          },
          [&](const analytic::MarkovSearch& search) {
            return markov_json(request, search, result.seconds);
          },
          [&](const analytic::TableClassSearch& search) {
            return nlohmann::json{{"class", policy_class_name(request.policy_class)},
                                  {"best", table_best_json(search)},
                                  {"search", search.exhaustive ? "exhaustive" : "local"},
                                  {"optimality", search.exhaustive ? "global" : "local"},
                                  {"tables", search.tables},
                                  {"policies_solved", search.policies_solved},
                                  {"moves", search.moves},
                                  {"seconds", result.seconds}};
          },
          [&](const analytic::ClassComparison& comparison) {
            const double optimum = comparison.optimum();
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& row : comparison.rows)
              rows.push_back(
                  {{"class", row.name},
                   {"cost", row.cost},
                   {"excess", analytic::excess(row.cost, optimum)},
                   {"relative_excess",
                    optimum != 0 ? analytic::excess(row.cost, optimum) / optimum : 0.0},
                   {"optimality", row.optimality},
                   {"policy", class_best_json(row.policy, row.cost, request.export_policy)}});
            return nlohmann::json{
                {"class", "all"},
                {"rows", rows},
                {"optimum", optimum},
                {"optimality", comparison.markov->global ? "global" : "heuristic"},
                {"lower_bound", comparison.markov->lower_bound},
                {"seconds", result.seconds}};
          }},
      result.search);
  if (result.ensemble) {
    j["ensemble"] = *result.ensemble;
    j["seconds_ensemble"] = result.seconds_ensemble;
  }
  if (const std::optional<double> rate =
          analytic::lumped_clock_rate(answering_model(request), model))
    j["lumping"] = searched_lumping_text(*rate, model.time_unit);
  return j;
}

}  // namespace crawlq::api
