"""Small questions about where an element sits in a parsed page, and what it holds."""

from __future__ import annotations

from lxml import etree


def inside(element: etree._Element, container: etree._Element) -> bool:
    """Whether ELEMENT is a descendant of CONTAINER."""
    return any(ancestor is container for ancestor in element.iterancestors())


def loose_text(container: etree._Element) -> bool:
    """Whether CONTAINER holds text of its own, outside its children."""
    return bool((container.text or "").strip()) or any((c.tail or "").strip() for c in container)
