#include "api/state_table.hpp"

#include "output/output_file.hpp"

namespace crawlq::api {

void write_state_table(const std::string& path, const std::string& label,
                       const analytic::StateSpace& space, const std::string& value_name,
                       const std::function<std::string(Eigen::Index)>& value) {
  output::OutputFile file(path, label);
  std::ostream& out = file.stream();
  out << "level,arrival_phase,service_phase";
  for (int c = 1; c < space.capacity(); ++c) out << ",clock_" << c;
  out << ',' << value_name << '\n';
  for (Eigen::Index i = 0; i < space.size(); ++i) {
    const auto s = space.state(i);
    out << s.level << ',' << s.arrival_phase << ',';
    if (s.level >= 1) out << s.service_phase;
    for (int c = 1; c < space.capacity(); ++c) {
      out << ',';
      if (c <= static_cast<int>(s.clock_phases.size())) out << s.clock_phases[c - 1];
    }
    out << ',' << value(i) << '\n';
  }
  file.commit();
}

}  // namespace crawlq::api
