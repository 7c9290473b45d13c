# Pipes the file INPUT into COMMAND (a ;-list, reading "-") and fails unless
# its standard output matches REGEX: a trace read from a pipe, as a
# decompressor would feed it.
#   cmake -DINPUT=f "-DCOMMAND=a;b;-" -DREGEX=... -P stdin_pipe.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -E cat ${INPUT}
                COMMAND ${COMMAND}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT out MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match ${REGEX} (status ${status}):\n${out}\n${err}")
endif()
