# Finds a Python 3 that can import lark (the generator's one dependency).
# Debian's python3-lark is visible only to /usr/bin/python3, and another
# python3 may come first on PATH, so every candidate is asked.
if(NOT NCCC_PYTHON)
  set(_nccc_candidates)
  find_program(_nccc_path_python python3)
  foreach(_c /usr/bin/python3 ${_nccc_path_python} /usr/local/bin/python3)
    if(_c AND EXISTS "${_c}")
      execute_process(COMMAND "${_c}" -c "import lark"
                      RESULT_VARIABLE _r OUTPUT_QUIET ERROR_QUIET)
      if(_r EQUAL 0)
        set(NCCC_PYTHON "${_c}" CACHE FILEPATH "Python 3 that can import lark")
        break()
      endif()
    endif()
  endforeach()
endif()
if(NOT NCCC_PYTHON)
  message(WARNING "nccc: no Python 3 with lark found; generator tests disabled "
                  "(apt-get install python3-lark)")
endif()

# Sets var to TRUE when NCCC_PYTHON can run "import <modules>" (one
# module, or several separated by commas). Otherwise sets it to FALSE and
# warns that what is not registered (the tests named by unregistered), and
# which Debian packages would bring the modules.
function(nccc_python_can_import var modules unregistered packages)
  execute_process(COMMAND ${NCCC_PYTHON} -c "import ${modules}"
                  RESULT_VARIABLE _missing OUTPUT_QUIET ERROR_QUIET)
  if(_missing)
    message(WARNING "nccc: ${NCCC_PYTHON} cannot import ${modules}; "
                    "${unregistered} not registered (apt-get install ${packages})")
    set(${var} FALSE PARENT_SCOPE)
  else()
    set(${var} TRUE PARENT_SCOPE)
  endif()
endfunction()
