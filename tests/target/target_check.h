/* A self-contained check runner for targets without GoogleTest (bare metal):
 * CHECK counts and reports, main() turns the count into the exit status. */
#ifndef GPUWCET_TARGET_CHECK_H
#define GPUWCET_TARGET_CHECK_H

#include <stdio.h>

extern int g_target_passed;
extern int g_target_failed;

#define CHECK(cond)                                                               \
  do {                                                                            \
    if (cond) {                                                                   \
      ++g_target_passed;                                                          \
    } else {                                                                      \
      ++g_target_failed;                                                          \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
    }                                                                             \
  } while (0)

/* The groups of checks, one file each. */
void target_makespan_checks(void);
void target_search_checks(void);
void target_profile_checks(void);
void target_block_checks(void);
void target_arena_checks(void);
void target_search_arena_checks(void);

#endif /* GPUWCET_TARGET_CHECK_H */
