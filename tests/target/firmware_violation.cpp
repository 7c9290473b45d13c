// Deliberately breaks the firmware rules (heap, a throw) so that the test
// firmware_check_catches_violation shows the symbol check does fail.
#include <cstdlib>

int* gpuwcet_violation_heap(int n) { return new int[static_cast<unsigned>(n)]; }
void* gpuwcet_violation_malloc(unsigned n) { return std::malloc(n); }
