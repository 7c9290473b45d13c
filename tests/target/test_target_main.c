/* Runs every group of target checks; the exit status is the verdict (on bare
 * metal it reaches the host through semihosting). */
#include "target_check.h"

int g_target_passed = 0;
int g_target_failed = 0;

int main(void) {
  target_makespan_checks();
  target_search_checks();
  target_profile_checks();
  target_block_checks();
  target_arena_checks();
  target_search_arena_checks();
  printf("target: %d passed, %d failed\n", g_target_passed, g_target_failed);
  return g_target_failed == 0 ? 0 : 1;
}
