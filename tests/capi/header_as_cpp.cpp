// The C header must also compile as C++ (and link from C++).
#include "gpuwcet.h"

int main() {
  gpuwcet_sm_desc sm;
  if (gpuwcet_sm_init(&sm, 32) != GPUWCET_OK) return 1;
  return gpuwcet_version() == GPUWCET_VERSION_NUMBER ? 0 : 1;
}
