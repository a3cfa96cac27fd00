# Install rules of the documentation (included by NcccInstall.cmake):
#   share/doc/nccc (CMAKE_INSTALL_DOCDIR)   README.md and every page of docs/,
#                                           the README's links to docs/X.md
#                                           made links to X.md beside it
#   share/man/man1 (CMAKE_INSTALL_MANDIR)   nccc-stubgen.1, made at build
#                                           time by help2man from the
#                                           generator's --help and --version
# The generator's messages name the pages where the install puts them
# (stubgen/docs.py); the man page is made with NCCC_DOCDIR set to that
# folder, so that it names them there too.
include_guard(GLOBAL)

file(GLOB _nccc_doc_pages CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/*.md")
install(FILES ${_nccc_doc_pages} DESTINATION "${CMAKE_INSTALL_DOCDIR}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PROJECT_SOURCE_DIR}/README.md")
file(READ "${PROJECT_SOURCE_DIR}/README.md" _nccc_readme)
string(REPLACE "](docs/" "](" _nccc_readme "${_nccc_readme}")
set(_nccc_old "")
if(EXISTS "${PROJECT_BINARY_DIR}/doc/README.md")
  file(READ "${PROJECT_BINARY_DIR}/doc/README.md" _nccc_old)
endif()
if(NOT _nccc_old STREQUAL _nccc_readme)
  file(WRITE "${PROJECT_BINARY_DIR}/doc/README.md" "${_nccc_readme}")
endif()
install(FILES "${PROJECT_BINARY_DIR}/doc/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

find_program(NCCC_HELP2MAN help2man)
if(NOT NCCC_HELP2MAN OR NOT NCCC_PYTHON)
  message(STATUS "nccc: help2man or the generator's Python not found; the man "
                 "page nccc-stubgen.1 is not made (apt-get install help2man)")
  return()
endif()
set(NCCC_MAN_PAGE "${PROJECT_BINARY_DIR}/man/nccc-stubgen.1")
file(GLOB _nccc_cli_sources "${PROJECT_SOURCE_DIR}/stubgen/*.py")
add_custom_command(OUTPUT "${NCCC_MAN_PAGE}"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${PROJECT_BINARY_DIR}/man"
  COMMAND "${CMAKE_COMMAND}" -E env "NCCC_PYTHON=${NCCC_PYTHON}"
          "NCCC_DOCDIR=${CMAKE_INSTALL_FULL_DOCDIR}"
          "${NCCC_HELP2MAN}" --no-info --no-discard-stderr
          "--name=generate nccc wrappers and host modules from an IDL file"
          "--output=${NCCC_MAN_PAGE}" "${PROJECT_SOURCE_DIR}/bin/nccc-stubgen"
  DEPENDS "${PROJECT_SOURCE_DIR}/bin/nccc-stubgen" ${_nccc_cli_sources}
  COMMENT "nccc: the man page nccc-stubgen.1 (help2man)"
  VERBATIM)
add_custom_target(nccc_man_page ALL DEPENDS "${NCCC_MAN_PAGE}")
install(FILES "${NCCC_MAN_PAGE}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
