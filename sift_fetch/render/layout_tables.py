"""Tables that lay text out rather than hold data, read as the blocks inside them.

A table of one row whose cells hold paragraphs or lists is a box, or columns, drawn around
text (jwz.org sets a post's preface in two such cells, with paragraphs and a list). trafilatura
reads it as a table: every paragraph of a cell ran into one table cell, and the list was
dropped. Such a table is not data, so its cells' blocks take its place, cell after cell.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

# Tables of one row (their own: a nested table's rows are its own) with a cell holding a block.
_CANDIDATES = etree.XPath(
    "//table[count(tr|*/tr) = 1][(tr|*/tr)/td[p|ul|ol|div|blockquote|h2|h3|h4|h5|h6]]"
)


def unwrap_layout_tables(tree: HtmlElement) -> None:
    """Replace each one-row table whose cells hold blocks with a `<div>` of the cells' blocks."""
    for table in _CANDIDATES(tree):
        row = table.xpath("tr|*/tr")[0]
        for cell in row:
            cell.tag = "div"
            cell.attrib.clear()
        row.tag = "div"
        row.attrib.clear()
        row.tail = table.tail
        table.getparent().replace(table, row)
