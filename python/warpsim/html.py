"""A self-contained HTML page: figures as inline SVG, tables, no external resource (no network needed).

The page ends with a small script that checks, in the browser, that every figure has drawn data and no
script error happened, and writes the result into <div id="report-check"> (the headless-browser test reads
it: tests/cli/report_test.sh).
"""

import html
import io
import re

import matplotlib.pyplot as plt

_CSS = """
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 1100px;
       color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.5em; border-bottom: 2px solid #446; padding-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccd; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
table { border-collapse: collapse; margin: .6em 0; font-size: .85em; }
th, td { border: 1px solid #ccd; padding: .2em .5em; text-align: right; vertical-align: top; }
th { background: #eef; text-align: center; }
td:first-child, th:first-child { text-align: left; }
td.text { text-align: left; }
tr.agrees td:first-child { background: #dfd; }
tr.differs td:first-child { background: #fdd; }
tr.cannot td:first-child { background: #eee; }
figure.plot { margin: 1em 0; }
figure.plot svg { max-width: 100%; height: auto; }
figcaption { font-size: .85em; color: #555; }
.meta td { text-align: left; }
.note { color: #666; font-size: .85em; }
#report-check { display: none; }
"""

_CHECK_JS = """
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  function check() {
    var figs = document.querySelectorAll('figure.plot');
    var empty = [];
    for (var i = 0; i < figs.length; i++) {
      var svg = figs[i].querySelector('svg');
      var data = svg ? svg.querySelectorAll('[id^="' + figs[i].id + '-wsdata"] path, ' +
                                           '[id^="' + figs[i].id + '-wsdata"] use').length : 0;
      var box = svg ? svg.getBoundingClientRect() : null;
      if (!svg || data === 0 || !box || box.width < 10 || box.height < 10) empty.push(figs[i].id);
    }
    var out = document.getElementById('report-check');
    out.setAttribute('data-figures', String(figs.length));
    out.setAttribute('data-empty', empty.join(' '));
    out.setAttribute('data-errors', errors.join(' | '));
    out.textContent = 'report-check figures=' + figs.length + ' empty=' + empty.length +
                      ' errors=' + errors.length + (empty.length || errors.length ? ' FAILED' : ' OK');
  }
  if (document.readyState === 'complete') check(); else window.addEventListener('load', check);
})();
"""


class Page:
    """An HTML page under construction."""

    def __init__(self, title):
        self.title = title
        self.parts = []
        self.nfig = 0

    def h(self, level, text):
        self.parts.append("<h%d>%s</h%d>" % (level, html.escape(text), level))

    def p(self, text, cls=None):
        self.parts.append("<p%s>%s</p>" % (' class="%s"' % cls if cls else "", html.escape(text)))

    def raw(self, s):
        self.parts.append(s)

    def pre(self, text):
        self.parts.append("<pre>%s</pre>" % html.escape(text))

    def kv(self, pairs, cls="meta"):
        rows = "".join("<tr><th>%s</th><td>%s</td></tr>" % (html.escape(str(k)), html.escape(_fmt(v)))
                       for k, v in pairs)
        self.parts.append('<table class="%s">%s</table>' % (cls, rows))

    def table(self, df, index=False, row_class=None, max_rows=200):
        """A DataFrame as a table; row_class(row) -> CSS class of the row."""
        cols = list(df.columns)
        head = "".join("<th>%s</th>" % html.escape(str(c)) for c in ([df.index.name or ""] if index else []) + cols)
        body = []
        for i, (idx, row) in enumerate(df.iterrows()):
            if i >= max_rows:
                body.append('<tr><td colspan="%d" class="text">... %d more rows</td></tr>' % (
                    len(cols) + index, len(df) - max_rows))
                break
            cells = (["<td>%s</td>" % html.escape(str(idx))] if index else [])
            for c in cols:
                v = row[c]
                cls = ' class="text"' if isinstance(v, str) else ""
                cells.append("<td%s>%s</td>" % (cls, html.escape(_fmt(v))))
            rc = row_class(row) if row_class else None
            body.append("<tr%s>%s</tr>" % (' class="%s"' % rc if rc else "", "".join(cells)))
        self.parts.append("<table><tr>%s</tr>%s</table>" % (head, "".join(body)))

    def figure(self, fig, caption=None):
        """A matplotlib figure as inline SVG (closed afterwards)."""
        self.nfig += 1
        fid = "fig%d" % self.nfig
        svg = svg_of(fig, fid)
        cap = "<figcaption>%s</figcaption>" % html.escape(caption) if caption else ""
        self.parts.append('<figure class="plot" id="%s">%s%s</figure>' % (fid, svg, cap))

    def render(self):
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                "<title>%s</title><style>%s</style></head><body>\n<h1>%s</h1>\n%s\n"
                "<div id=\"report-check\">report-check pending</div>\n<script>%s</script>\n</body></html>\n" % (
                    html.escape(self.title), _CSS, html.escape(self.title), "\n".join(self.parts), _CHECK_JS))

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.render())


def _fmt(v):
    if isinstance(v, float):
        if v != v:
            return "n/a"
        if v.is_integer() and abs(v) < 1e15:
            return "%d" % v
        if v == 0 or 1e-3 <= abs(v) < 1e7:
            return ("%.4f" % v).rstrip("0").rstrip(".") if abs(v) < 1000 else "%.1f" % v
        return "%.4g" % v
    if isinstance(v, (list, tuple)):
        return "[%d values]" % len(v) if len(v) > 8 else ", ".join(_fmt(x) for x in v)
    return str(v)


def mark_data(fig):
    """Give every artist that draws data (lines with points, bars, filled areas, scatter) an SVG id
    starting with "wsdata", so the page's check can tell a figure with data from an empty frame."""
    k = 0
    for ax in fig.get_axes():
        for ln in ax.get_lines():
            x = ln.get_xdata()
            if len(x) > 0 and ln.get_gid() is None and ln.get_linestyle() not in ("None", "") and len(x) > 1:
                ln.set_gid("wsdata%d" % k)
                k += 1
        for c in ax.containers:
            for p in c:
                if hasattr(p, "get_height") and p.get_gid() is None:
                    p.set_gid("wsdata%d" % k)
                    k += 1
        for p in ax.patches:
            if p.get_gid() is None and getattr(p, "get_height", lambda: 0)() != 0:
                p.set_gid("wsdata%d" % k)
                k += 1
        for c in ax.collections:
            if c.get_gid() is None and len(c.get_paths()) > 0:
                c.set_gid("wsdata%d" % k)
                k += 1
    return k


_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^)"]+)')


def svg_of(fig, prefix):
    """The figure as an <svg> element whose ids all start with prefix (several SVGs share one HTML
    document's id space)."""
    mark_data(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    s = buf.getvalue()
    s = s[s.index("<svg"):]
    s = re.sub(r"\s*<metadata>.*?</metadata>", "", s, flags=re.S)   # RDF boilerplate
    s = _ID.sub(lambda m: 'id="%s-%s"' % (prefix, m.group(1)), s)
    s = _REF.sub(lambda m: "%s%s-%s" % (m.group(1), prefix, m.group(2)), s)
    return s
