// When the program starts itself again with huge pages for its heap (sims/heap_huge_pages.h).
#include <gtest/gtest.h>

#include "sims/heap_huge_pages.h"

namespace meshmp {
namespace {

TEST(HeapHugePages, AskedOnlyWhereTheKernelGivesThemOnRequest) {
  EXPECT_EQ(huge_page_tunables(nullptr, "madvise", false), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables("", "madvise", false), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables(nullptr, "always", false), std::nullopt);  // the heap has them anyway
  EXPECT_EQ(huge_page_tunables(nullptr, "never", false), std::nullopt);
  EXPECT_EQ(huge_page_tunables(nullptr, "", false), std::nullopt);  // no such setting: an older or other kernel
}

TEST(HeapHugePages, KeepsTheUsersTunablesAndTheirChoice) {
  EXPECT_EQ(huge_page_tunables("glibc.malloc.arena_max=2", "madvise", false),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  // Chosen already, either way: also what stops the started-again program from starting once more.
  EXPECT_EQ(huge_page_tunables("glibc.malloc.hugetlb=0", "madvise", false), std::nullopt);
  EXPECT_EQ(huge_page_tunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", "madvise", false), std::nullopt);
}

TEST(HeapHugePages, NotAskedOfAnotherAllocator) {
  EXPECT_EQ(huge_page_tunables(nullptr, "madvise", true), std::nullopt);
}

}  // namespace
}  // namespace meshmp
