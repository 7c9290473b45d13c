/* The check runner of the C API tests (one program per file, C99, no
 * GoogleTest, so that they also run as firmware images): CHECK counts and
 * reports, main() turns the counts into the exit status. */
#ifndef GPUWCET_CAPI_CHECK_H
#define GPUWCET_CAPI_CHECK_H

#include <stdio.h>

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond)                                                             \
  do {                                                                          \
    if (cond) {                                                                 \
      ++g_passed;                                                               \
    } else {                                                                    \
      ++g_failed;                                                               \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                           \
  } while (0)

#endif /* GPUWCET_CAPI_CHECK_H */
