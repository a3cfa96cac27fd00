/*
** nccc/visibility.h — which symbols a program or shared library built on
** the runtime sees.
**
** NCCC_API marks every function and object of the public API (declared
** in the installed headers): default visibility, so a shared library
** that links libnccc_runtime.a can hand them to its users.
** NCCC_INTERNAL marks what the runtime's files share among themselves
** (names starting nccci_, declared in headers that are not installed):
** hidden, so such a library never re-exports them.
*/
#ifndef NCCC_VISIBILITY_H
#define NCCC_VISIBILITY_H

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && \
    !defined(__CYGWIN__)
#define NCCC_API __attribute__((visibility("default")))
#define NCCC_INTERNAL __attribute__((visibility("hidden")))
#else
#define NCCC_API
#define NCCC_INTERNAL
#endif

#endif
