// Transparent huge pages for the heap. A large run's state (processors, DMA register files, network
// interfaces, matchers, links) is spread over a heap of hundreds of MB that a message walks at random,
// so with 4 KiB pages nearly every touch of another node's state misses the TLB as well as the cache.
// glibc backs its heap with huge pages when the tunable glibc.malloc.hugetlb=1 is set at program start
// (it cannot be set later), and Linux gives them to a heap that asks when its transparent huge pages are
// in `madvise` mode, Debian's default. The program therefore starts itself again, once, with the tunable
// added. docs/speed.md has the measurements; GLIBC_TUNABLES=glibc.malloc.hugetlb=0 keeps 4 KiB pages.
#pragma once

#include <optional>
#include <string>

namespace meshmp {

// The GLIBC_TUNABLES value to start again with, or none when the start as it is stays: the tunable is
// chosen already (set either way), the kernel's mode (the bracketed word of
// /sys/kernel/mm/transparent_hugepage/enabled) is not `madvise` (`always` backs the heap anyway, `never`
// backs nothing), or another allocator replaced glibc's (a sanitizer, valgrind).
std::optional<std::string> huge_page_tunables(const char* current_tunables, const std::string& thp_mode,
                                              bool malloc_replaced);

// Starts this program again (execv of its own file with the same arguments) when huge_page_tunables
// says so; returns when it does not, or when the start fails (the run goes on with 4 KiB pages).
void start_with_heap_huge_pages(char* argv[]);

}  // namespace meshmp
