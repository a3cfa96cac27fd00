"""One SVG chart of an area's ratios for bench/report: a bar per ratio,
its length the measured value over its goal on a log scale (the goal is
the line at 1; a bar reaching past it misses), green when met, red when
missed, the value and the goal written beside it. Plain SVG text, no
plotting library.
"""

import math
from xml.sax.saxutils import escape

WIDTH = 900
LABEL_W = 300      # the ratio's name, left of the bars
BAR_W = 300        # from 1/8 of the goal to 8 times it
ROW_H = 22
TOP = 46
SPAN = 3.0         # the scale runs from goal / 2**SPAN to goal * 2**SPAN
MET, MISSED = "#3a8f3a", "#c23b22"


def _x(fraction):
    """Where fraction (value over goal, or goal over value for an
    at-least goal) falls on the log scale."""
    f = min(max(fraction, 2 ** -SPAN), 2 ** SPAN)
    return LABEL_W + BAR_W * (math.log2(f) + SPAN) / (2 * SPAN)


def chart(title, note, rows):
    """rows: (name, value, goal text, fraction, met); fraction is the
    value over its goal (< 1 is better) or None when the row has no
    number (a build skipped)."""
    height = TOP + ROW_H * len(rows) + 34
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
           % (WIDTH, height, WIDTH, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="8" y="18" font-size="15" font-weight="bold">%s</text>'
           % escape(title),
           '<text x="8" y="34" fill="#555">%s</text>' % escape(note)]
    goal_x = _x(1.0)
    for i, (name, value, goal, fraction, met) in enumerate(rows):
        y = TOP + i * ROW_H
        colour = MET if met else MISSED
        out.append('<text x="8" y="%d">%s</text>' % (y + 15, escape(name)))
        if fraction is not None:
            x = _x(fraction)
            out.append('<rect x="%d" y="%d" width="%.1f" height="%d" '
                       'fill="%s"/>' % (LABEL_W, y + 4, x - LABEL_W,
                                        ROW_H - 8, colour))
        out.append('<text x="%d" y="%d" fill="%s">%s (goal %s) %s</text>'
                   % (LABEL_W + BAR_W + 8, y + 15, colour, escape(value),
                      escape(goal), "met" if met else "missed"))
    bottom = TOP + ROW_H * len(rows)
    out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" '
               'stroke-dasharray="4 3"/>' % (goal_x, TOP - 4, goal_x, bottom))
    for k in range(-int(SPAN), int(SPAN) + 1):
        x = _x(2.0 ** k)
        label = ("goal" if k == 0 else
                 "%sx" % (2 ** k if k > 0 else "1/%d" % 2 ** -k))
        out.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">'
                   '%s</text>' % (x, bottom + 16, label))
    out.append('<text x="%d" y="%d" fill="#555">bar: the value over its '
               'goal, log scale; past the dashed line misses</text>'
               % (LABEL_W, bottom + 30))
    out.append("</svg>")
    return "\n".join(out) + "\n"
