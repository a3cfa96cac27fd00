"""docs/IMPORT.md shows drafts as the importer writes them: every
declaration of its C examples (blocks separated by blank lines) is in
the draft of widget.h or parser.h, and its error examples are the
errors of the command."""

import re

from conftest import HEADERS, ROOT, draft

PAGE = (ROOT / "docs" / "IMPORT.md").read_text()


def _blocks(info):
    return re.findall(r"```%s\n(.*?)```" % info, PAGE, re.S)


def test_every_example_declaration_is_in_a_draft():
    drafts = draft(HEADERS / "widget.h") + draft(HEADERS / "parser.h")
    examples = [u.strip() for block in _blocks("c")
                for u in block.split("\n\n") if u.strip()]
    assert len(examples) >= 15
    for unit in examples:
        assert unit in drafts, unit


def test_review_markers_of_the_table_are_the_importers():
    table = PAGE.split("## Review markers", 1)[1].split("\n## ", 1)[0]
    markers = re.findall(r"^\| `([^`]+)`", table, re.M)
    widget = draft(HEADERS / "widget.h")
    for marker in markers:
        if marker.startswith("P is a char"):
            assert "// REVIEW: dest is a char *:" + marker.split(":", 1)[1] \
                in widget
        elif marker.startswith(("the result is", "how long")):
            assert "// REVIEW: " + marker.replace("CB", "cb") in widget
