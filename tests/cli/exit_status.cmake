# Runs COMMAND (a ;-list) and fails unless it exits with EXPECT: the exit
# status of a command that succeeds in part (gpuwcet block-wcet's 3 for a
# bound not shown safe) is more than pass or fail.
#   cmake -DEXPECT=3 "-DCOMMAND=a;b;c" -P exit_status.cmake
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
if(NOT status STREQUAL EXPECT)
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECT}: ${COMMAND}")
endif()
