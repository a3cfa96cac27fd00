# The Windows programs of the cross project (test/cross/), included there
# when it is built for Windows: [lasterror] around kernel32 and in a
# callback (win32.idl), and the host tests' fixture with its 32-bit long.
set(win "${NCCC_ROOT}/test/windows")
nccc_add_bindings(cross_win32 "${win}/win32.idl")
target_sources(cross_win32 PRIVATE "${win}/lasterror_fixture.c")
target_include_directories(cross_win32 PUBLIC "${win}")
nccc_cross_program(windows_lasterror SOURCES "${win}/test_lasterror.c"
                   LIBS cross_win32)

set(hosts "${NCCC_ROOT}/test/hosts/fixture")
nccc_add_bindings(cross_hcb "${hosts}/hcb.idl")
target_sources(cross_hcb PRIVATE "${hosts}/hcb.c")
target_include_directories(cross_hcb PUBLIC "${hosts}")
nccc_cross_program(windows_fixture
  SOURCES "${win}/test_win_fixture.c" "${hosts}/fixture.c"
  LIBS cross_tour cross_hcb)
