"""Small questions about where an element sits in a parsed page, and what it holds."""

from __future__ import annotations

from lxml import etree


def inside(element: etree._Element, container: etree._Element) -> bool:
    """Whether ELEMENT is a descendant of CONTAINER."""
    return any(ancestor is container for ancestor in element.iterancestors())


# Content a <p> cannot hold (HTML's flow content that is not phrasing content), by tag name.
NOT_PHRASING = frozenset(
    {
        *("address", "article", "aside", "blockquote", "div", "dl", "figure", "footer", "form"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "nav", "ol", "p", "pre"),
        *("section", "table", "ul"),
    }
)


def holds_block(element: etree._Element) -> bool:
    """Whether ELEMENT holds content a <p> cannot hold. Read in Python, which stops at the first
    one: an XPath asks the whole subtree, and a nest of such elements would cost the square of
    its depth."""
    return any(el.tag in NOT_PHRASING for el in element.iterdescendants(etree.Element))


def loose_text(container: etree._Element) -> bool:
    """Whether CONTAINER holds text of its own, outside its children."""
    return bool((container.text or "").strip()) or any((c.tail or "").strip() for c in container)
