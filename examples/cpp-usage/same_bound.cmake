# Runs the example and the CLI on the same trace and preset; fails unless
# both report the same safe block bound.
execute_process(COMMAND ${EXAMPLE} ${TRACE} orin-sm 100 OUTPUT_VARIABLE ex RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpp_usage failed (${rc}):\n${ex}")
endif()
execute_process(COMMAND ${CLI} block-wcet ${TRACE} --hw-preset orin-sm --mem-latency 100 --block 0 --json
                OUTPUT_VARIABLE cli RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpuwcet block-wcet failed (${rc}):\n${cli}")
endif()
string(REGEX MATCH "block bound ([0-9]+) cycles" _ "${ex}")
set(example_bound "${CMAKE_MATCH_1}")
string(REGEX MATCH "\"bound\": ([0-9]+)" _ "${cli}")
set(cli_bound "${CMAKE_MATCH_1}")
if(example_bound STREQUAL "" OR NOT example_bound STREQUAL cli_bound)
  message(FATAL_ERROR "example bound '${example_bound}' != CLI bound '${cli_bound}'\n${ex}\n${cli}")
endif()
message(STATUS "both report ${example_bound} cycles")
