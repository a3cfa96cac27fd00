# Runs EXE and compares what it prints with the file EXPECTED.
execute_process(COMMAND "${EXE}" OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
file(READ "${EXPECTED}" want)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with ${rc}:\n${out}${err}")
endif()
if(NOT out STREQUAL want)
  message(FATAL_ERROR "output differs from ${EXPECTED}:\n${out}")
endif()
