#include "validation/paper_reproduction.hpp"

#include <cmath>

#include "validation/printed_tables.hpp"
#include "validation/reproduce_sections.hpp"

namespace crawlq::validation {

Reproduction reproduce_paper(const ReproductionOptions& options) {
  Reproduction out;
  out.options = options;
  const auto wanted = [&](const char* section) {
    return options.sections.empty() || options.sections.count(section);
  };
  const PolicySimulation simulation(options.seed, options.threads, options.quick);
  if (wanted("tables")) {
    if (options.progress) options.progress("Table 1");
    reproduce_table1(out, simulation);
    reproduce_table2(out, simulation);
    reproduce_tables3and4(out);
    if (options.progress) options.progress("Table 5");
    reproduce_table5(out, simulation);
  }
  if (wanted("figures")) reproduce_figures(out, simulation);
  if (wanted("sample-path")) reproduce_sample_path(out);
  if (wanted("refresh")) reproduce_refresh(out);
  if (wanted("control")) reproduce_control(out);
  if (wanted("fit")) reproduce_fit(out);
  out.remarks.insert(
      out.remarks.begin(),
      std::string(
          "A printed value agrees when the computed one is within one unit of its last printed "
          "digit. Every flagged row states its reason and, where a simulation can settle it, the "
          "simulator's 95% interval") +
          (options.quick ? " (quick mode: short simulations, wide intervals)." : "."));
  return out;
}

}  // namespace crawlq::validation
