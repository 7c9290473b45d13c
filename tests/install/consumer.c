#include <stdio.h>

#include "gpuwcet.h"

int main(void) {
  gpuwcet_sm_desc sm;
  gpuwcet_makespan_result r;
  if (gpuwcet_sm_init(&sm, 32) != GPUWCET_OK) return 1;
  if (gpuwcet_sm_add_class(&sm, 'L', 16) != GPUWCET_OK) return 1;
  if (gpuwcet_sm_add_class(&sm, 'C', 32) != GPUWCET_OK) return 1;
  if (gpuwcet_makespan_result_init(&r) != GPUWCET_OK) return 1;
  if (gpuwcet_makespan_pessimistic(&sm, "LC", 2, 4, &r) != GPUWCET_OK) return 1;
  printf("consumer: %s pessimistic %llu\n", gpuwcet_version_string(),
         (unsigned long long)r.makespan);
  return 0;
}
