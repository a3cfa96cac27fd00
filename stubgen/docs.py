"""Where the generator's messages send a reader: a page of nccc's
documentation, named where it is.

The install puts the pages in PREFIX/share/doc/nccc and the generator in
PREFIX/share/nccc/stubgen; in a source tree they are docs/. The man page
is made at build time from --help with NCCC_DOCDIR set to the folder the
install will put the pages in (cmake/NcccInstallDocs.cmake)."""

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def doc(page):
    """The path of the documentation page `page` ("IMPORT.md"): under
    $NCCC_DOCDIR when set; else beside an installed generator; else
    docs/PAGE of the source tree the generator runs from."""
    folder = os.environ.get("NCCC_DOCDIR")
    if folder:
        return os.path.join(folder, page)
    installed = _PACKAGE.parent.parent / "doc" / "nccc"
    if (installed / page).is_file():
        return str(installed / page)
    return "docs/" + page
