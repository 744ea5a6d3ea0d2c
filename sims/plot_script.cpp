// Running the plot scripts. See plot_script.h.
#include "sims/plot_script.h"

#include <unistd.h>

#include <cstdio>
#include <memory>

namespace meshmp {

std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void run_plot_script(const std::string& self_path, const std::string& script_name, const std::string& source_path,
                     const std::vector<std::string>& arguments, const std::string& png, std::ostream& out) {
  std::string script = self_path.substr(0, self_path.rfind('/') + 1) + script_name;
  if (access(script.c_str(), R_OK) != 0) script = source_path;
  const std::string python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  std::string command = python + " " + shell_quote(script);
  for (const std::string& argument : arguments) command += " " + shell_quote(argument);
  command += " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string text;
  char buffer[4096];
  while (pipe && std::fgets(buffer, sizeof buffer, pipe.get())) text += buffer;
  const int status = pipe ? pclose(pipe.release()) : -1;
  if (status == 0) out << "  plot: " << png << "\n";
  else
    out << "  no plot (" << script << " (python3 with matplotlib) stopped: " << text.substr(0, text.find('\n'))
        << ")\n";
}

}  // namespace meshmp
