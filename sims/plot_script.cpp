// Running the plot scripts. See plot_script.h.
#include "sims/plot_script.h"

#include <filesystem>

#include <unistd.h>

#include "sims/child_process.h"

namespace meshmp {

void run_plot_script(const std::string& self_path, const std::string& script_name, const std::string& source_path,
                     const std::vector<std::string>& arguments, OutputFile& png,
                     const std::vector<std::string>& trailing, std::ostream& out) {
  std::string script = self_path.substr(0, self_path.rfind('/') + 1) + script_name;
  if (access(script.c_str(), R_OK) != 0) script = source_path;
  const std::string python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "/usr/bin/env";
  std::vector<std::string> argv{python};
  if (python == "/usr/bin/env") argv.push_back("python3");
  argv.push_back(script);
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  argv.push_back(png.writing_path());
  argv.insert(argv.end(), trailing.begin(), trailing.end());
  const ChildOutcome plot = run_child_process(argv);
  if (plot.exit_status != 0)
    throw OutputError(png.field() + " = '" + png.path() + "': the plot was not drawn: " + script +
                      " (python3 with matplotlib) ended with " + plot.describe());
  const std::string path = png.path();
  png.commit();
  out << plot.out << "  plot: " << path << "\n";
}

OutputFile table_beside_plot(const std::string& png) {
  const std::string csv = std::filesystem::path(png).replace_extension(".csv").string();
  check_distinct_outputs({{"--plot", png}, {"--plot's CSV", csv}});
  return OutputFile("--plot", csv);
}

}  // namespace meshmp
