# Runs the example and compares its output with the expected file.
# EMULATOR (optional): the command that runs a target program on this host,
# space-separated (CMAKE_CROSSCOMPILING_EMULATOR of a cross build).
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
execute_process(COMMAND ${emulator} ${PROGRAM} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
file(READ ${EXPECTED} expected)
if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "exit ${rc}; output:\n${out}\nexpected:\n${expected}")
endif()
