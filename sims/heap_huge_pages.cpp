// Transparent huge pages for the heap. See heap_huge_pages.h.
#include "sims/heap_huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace meshmp {

std::optional<std::string> huge_page_tunables(const char* current_tunables, const std::string& thp_mode,
                                              bool malloc_replaced) {
  const std::string current = current_tunables ? current_tunables : "";
  if (malloc_replaced || thp_mode != "madvise" || current.find("glibc.malloc.hugetlb") != std::string::npos)
    return std::nullopt;
  return (current.empty() ? "" : current + ":") + "glibc.malloc.hugetlb=1";
}

namespace {

// The kernel's transparent-huge-page mode: the bracketed word of its setting ("" when unknown).
std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const auto open = line.find('['), close = line.find(']');
  return open == std::string::npos || close == std::string::npos || close < open ? ""
                                                                                : line.substr(open + 1, close - open - 1);
}

// Whether glibc's malloc is not the one serving this process, so that its tunable would do nothing.
bool malloc_replaced() {
#if defined(__SANITIZE_ADDRESS__)  // AddressSanitizer serves malloc itself
  return true;
#else
  const char* preload = std::getenv("LD_PRELOAD");  // valgrind's tools preload their own malloc
  return preload != nullptr && std::strstr(preload, "vgpreload") != nullptr;
#endif
}

}  // namespace

void start_with_heap_huge_pages(char* argv[]) {
  const std::optional<std::string> tunables = huge_page_tunables(std::getenv("GLIBC_TUNABLES"), thp_mode(), malloc_replaced());
  if (!tunables) return;
  // Set before the attempt: should execv fail, the run goes on as it is and its children do not try again.
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  // By the file's own path rather than /proc/self/exe: the kernel names the process after the file
  // started, and `ps` or `pgrep meshmp` should still see meshmp.
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return;
  self[length] = '\0';
  execv(self, argv);
}

}  // namespace meshmp
