// `meshmp list`. See list_command.h.
#include "sims/list_command.h"

#include "firmware/api/algorithm_registry.h"
#include "firmware/workloads/workload.h"
#include "hw/router/routing.h"

namespace meshmp {
namespace {

void print_option(std::ostream& out, const char* flag, const AlgorithmOption& o) {
  out << "      " << flag << " " << o.name << "=<" << to_string(o.type);
  for (std::size_t i = 0; i < o.choices.size(); ++i) out << (i ? "|" : ": ") << o.choices[i];
  if (o.type == AlgorithmOption::Type::Integer) out << " " << o.min << ".." << o.max;
  out << ">  " << o.help << "  [default " << o.default_value << "]\n";
}

}  // namespace

int ListCommand::run(const CommandContext& context) {
  std::ostream& out = context.out;
  out << "exchange algorithms:\n";
  for (const auto& a : algorithms()) {
    out << "  " << a.name << " - " << a.summary << " [" << a.source << "; workload " << a.workload << "]\n";
    for (const auto& o : a.options) print_option(out, "--algorithm-option", o);
  }
  out << "workloads (each algorithm solves one):\n";
  for (const auto& w : workload_kinds()) {
    out << "  " << w.name << " - " << w.summary << " [" << w.source << "]\n";
    for (const auto& o : w.options) print_option(out, "--workload-option", o);
  }
  out << "routing functions (--routing; source routes chosen by the firmware work beside any of them):\n";
  for (const auto& f : routing_functions())
    out << "  " << f.name << " - " << (f.adaptive != nullptr ? "adaptive (--selection first, random or most-credits)"
                                  : f.two_phase() ? "oblivious (an intermediate node drawn per packet)" : "deterministic")
        << "; applies to " << f.applies_to << "; virtual channels: " << f.virtual_channels << " [" << f.source << "]\n";
  return 0;
}

}  // namespace meshmp
