#pragma once
// `fit` as requests (issue 19): a delivery log to a MAP of batches and the BMAP of pages; a sample
// or three moments to a phase-type law. The answers are the JSON of `crawlq fit arrivals|service
// --json`, for the command line and the Python package alike.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "api/caller_words.hpp"
#include "fit/timestamp_log.hpp"

namespace crawlq::api {

struct FitArrivalsRequest {
  std::string source;                           // the log's name, for messages
  std::vector<double> times;                    // fit::read_timestamps: in order, at least two
  std::optional<double> batch_gap, censor_gap;  // default: from the data (fit/batched_log.hpp)
  int lags = 6;
  std::string method =
      "moments";    // or "em": maximum likelihood from the moments fit (regime_map_em.hpp)
  int regimes = 2;  // em's hidden regimes
  std::optional<int> phases;  // the MAP's order at most; default: what the log asks
  int robots = 1;             // modes of the BMAP of pages: mode r is r D (the paper's D^(r))
  Caller caller = Caller::kCommandLine;  // whose words the messages use
  // What reading the log in time order moved (fit::read_timestamps): said under "reordered".
  fit::LogOrder order = {};
  // Refits on this many block-bootstrap resamples of the log's batches (fit/block_bootstrap.hpp),
  // their spread said under "bootstrap"; 0: none.
  int bootstrap = 0;
  std::uint64_t seed = 1;  // the resamples': the same seed gives the same refits
  // Told each refit's `arrivals:` section as it is made (replicate 1 to bootstrap): files,
  // progress.
  std::function<void(int replicate, const nlohmann::json& arrivals)> refitted = {};

  // False with `why` naming the field (in the caller's words) and the value.
  bool is_valid(std::string* why) const;
};

// {"units", "batches", "censored", "batch_gap", "censor_gap", "size_probabilities", "sample",
// "fitted", "arrivals"} (interface.md), and "bootstrap" when asked: {"replicates", "block_length",
// "seed", "point", "standard_errors", "intervals"}; model::InputError when the request is not valid
// or the log leaves fewer than two times between batches.
nlohmann::json fit_arrivals(const FitArrivalsRequest& request);

// `scenario` (a scenario's JSON form) with its `arrivals:` replaced by the fit's, each D_0 diagonal
// as the loader recomputes it (a file crawlq writes reads back without repair notes). With `log`:
// named "NAME-fitted" and sourced as a fit of the log.
nlohmann::json with_fitted_arrivals(nlohmann::json scenario, const nlohmann::json& fitted,
                                    const std::string& log = "");

struct FitLawRequest {
  std::string source;           // the sample's name, or "--moments ..." for messages
  std::vector<double> sample;   // fit::read_sample, or empty with `moments`
  std::vector<double> moments;  // m1, m2, m3 when there is no sample
  std::optional<double> mean;   // rescale to this mean
  std::string method =
      "moments";   // or "em": maximum likelihood over hyperexponential laws (a sample only)
  int phases = 2;  // em's exponentials
  Caller caller = Caller::kCommandLine;  // whose words the messages use
};

// {"sample", "fitted", "beta", "S"} (interface.md); model::InputError for bad moments.
nlohmann::json fit_law(const FitLawRequest& request);

}  // namespace crawlq::api
