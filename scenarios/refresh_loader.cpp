#include "scenarios/refresh_loader.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "model/number_text.hpp"
#include "scenarios/law_reader.hpp"
#include "scenarios/shipped_files.hpp"
#include "scenarios/time_unit_key.hpp"
#include "scenarios/yaml_document.hpp"

namespace crawlq::scenarios {

namespace {

model::AccessTime access_time(const YamlReader& r) {
  r.require_map();
  if (r.has("deterministic")) {
    r.allow_only({"deterministic"});
    return model::AccessTime(model::DeterministicTime{r.at("deterministic").number()});
  }
  return model::AccessTime(read_phase_type(r, "beta", "S"));
}

// F_k as written: digits are read exactly (through a double, F_90 = 2880067194370816120 would
// become 2880067194370816000 and be refused as no Fibonacci number); other spellings of a whole
// number ("1.44e2") as every scenario number is read.
long cycle_length(const YamlReader& c) {
  if (!c.node().IsScalar()) c.number();  // refuses it, naming the key
  const std::string& text = c.node().Scalar();
  const std::string shown = c.shown();  // escaped and shortened: the message stays one line
  long value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error == std::errc() && stop == end && value >= 1) return value;
  if (error == std::errc::result_out_of_range && stop == end)
    throw model::InputError(
        c.path(), fmt::format("{}: above the largest Fibonacci number a cycle can be, {}", shown,
                              model::fibonacci_numbers().back()));
  if (const auto whole = model::parse_whole_number(text, 1, std::numeric_limits<long>::max()))
    return *whole;
  throw model::InputError(
      c.path(),
      fmt::format("{}: a Fibonacci number of reads (13, 21, 34, 55, 89, 144, ...)", shown));
}

// The frequencies as shares of their total ("normalised to sum 1"), divided by the largest first so
// that the total cannot overflow (3 x 1e308). A share below the smallest normal double loses its
// digits or vanishes, so it is refused as too small rather than read as a page never read. Values
// <= 0 are left as written: the model refuses them.
std::vector<double> shares(std::vector<double> values, const YamlReader& f) {
  if (values.empty() || *std::min_element(values.begin(), values.end()) <= 0) return values;
  const double largest = *std::max_element(values.begin(), values.end());
  double total = 0;
  for (const double v : values) total += v / largest;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double share = values[i] / largest / total;
    if (share < std::numeric_limits<double>::min())
      throw model::InputError(fmt::format("{}[{}]", f.path(), i),
                              fmt::format("{}: its share of the total (the largest frequency "
                                          "is {}) is below {:.3g}, the smallest normal double, "
                                          "too small to compute with",
                                          values[i], largest, std::numeric_limits<double>::min()));
    values[i] = share;
  }
  return values;
}

model::RefreshPolicySpec policy(const YamlReader& r) {
  r.require_map();
  r.allow_only({"kind", "frequencies", "sequence", "cycle"});
  model::RefreshPolicySpec p;
  const YamlReader kind = r.at("kind");
  const std::string k = kind.text();
  if (!model::kRefreshPolicyNames.contains(k))
    throw model::InputError(kind.path(), fmt::format("unknown policy {} (known: {})", kind.shown(),
                                                     model::kRefreshPolicyNames.known()));
  p.kind = model::kRefreshPolicyNames.parse(k);
  if (r.has("frequencies")) {
    const YamlReader f = r.at("frequencies");
    if (f.node().IsScalar()) {
      if (f.text() != "optimal")
        throw model::InputError(
            f.path(), fmt::format("'{}': give a list of frequencies or `optimal`", f.text()));
    } else {
      p.frequencies = shares(f.numbers(), f);
    }
  }
  if (r.has("sequence")) p.sequence = r.at("sequence").integers();
  if (r.has("cycle")) p.cycle = cycle_length(r.at("cycle"));
  return p;
}

RefreshScenario build_refresh(const YamlReader& root) {
  root.require_map();
  if (!root.has("refresh"))
    throw model::InputError(
        "refresh", "missing: a page refresh scenario has a `refresh` section (see interface.md)");
  root.allow_only({"name", "source", "time_unit", "refresh"});
  const YamlReader r = root.at("refresh");
  r.require_map();
  r.allow_only({"change_rates", "weights", "access_time", "policy"});
  std::vector<double> rates = r.at("change_rates").numbers();
  std::vector<double> weights = r.has("weights") ? r.at("weights").numbers() : rates;
  model::RefreshPolicySpec spec;
  if (r.has("policy")) spec = policy(r.at("policy"));
  RefreshScenario s{model::RefreshModel{.name = root.has("name") ? root.at("name").text() : "",
                                        .change_rates = std::move(rates),
                                        .weights = std::move(weights),
                                        .access_time = access_time(r.at("access_time")),
                                        .policy = std::move(spec),
                                        .time_unit = time_unit_key(root)},
                    root.has("source") ? root.at("source").text() : ""};
  s.model.validate();
  return s;
}

}  // namespace

RefreshScenario parse_refresh_scenario(const std::string& text, const std::string& label) {
  return parse_yaml_document<RefreshScenario>(text, label, build_refresh);
}

RefreshScenario load_refresh_scenario(const std::filesystem::path& as_written) {
  const std::filesystem::path file = locate_scenario(as_written.string());
  return parse_refresh_scenario(read_file(file), file.string());
}

}  // namespace crawlq::scenarios
