// meshmp's data files. See data_files.h.
#include "sims/data_files.h"

#include <filesystem>
#include <system_error>

namespace meshmp {

std::string data_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, error)) return path;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return path;
  const fs::path share = executable.parent_path().parent_path() / "share" / "meshmp";
  const std::string in_tree = "sims/";
  for (const fs::path& candidate :
       {share / path, share / (path.rfind(in_tree, 0) == 0 ? path.substr(in_tree.size()) : path)})
    if (fs::is_regular_file(candidate, error)) return candidate.string();
  return path;
}

}  // namespace meshmp
