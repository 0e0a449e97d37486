"""Small questions about where an element sits in a parsed page."""

from __future__ import annotations

from lxml import etree


def inside(element: etree._Element, container: etree._Element) -> bool:
    """Whether ELEMENT is a descendant of CONTAINER."""
    return any(ancestor is container for ancestor in element.iterancestors())
