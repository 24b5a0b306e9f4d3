"""Reading rendered HTML as a browser shows it, so the templates can be wrapped at any place
where whitespace does not render without the tests that read the page noticing.

Terms:

* parsed HTML — the page as a tree of elements (name, attributes, children) and texts, the
  character references decoded, `class` names sorted and a boolean attribute's value
  dropped (`<input checked>` is `<input checked="checked">`), as Django's `assertInHTML`
  reads it.
* rendered whitespace — unlike Django's reading, whitespace that a person can see still
  counts: a run of whitespace is one space, and it is dropped only where a browser drops it
  (CSS's white-space collapsing with the elements' default display): after another space,
  even one across an inline element's edge, and at a line's start and end — beside a
  block-level element such as `<div>`, `<tr>`, `<td>`, `<li>` or `<br>`. So
  `<bdi>Ann</bdi> +3` and `<bdi>Ann</bdi>+3` differ, while `<tr><td>1</td></tr>` and
  `<tr>\n  <td>1</td>\n</tr>`, or `<p><b>Ann</b></p>` and `<p>\n  <b>\n  Ann</b></p>`, are
  the same. Inside `<pre>` and `<textarea>` whitespace is kept as it is; a stylesheet that
  makes an element a block (or a flex box) is not known here.
* needle — the fragment a test looks for: one or more sibling nodes. It is found where an
  element's children hold the same run of siblings; a text at the run's start may be the
  end of a longer text, one at its end the start of one, and a needle of text alone may be
  any part of one text (`'Round 1'` is found in `<a>Round 1 of 3</a>`). An element the
  needle leaves open (`'<a href="/r/1/">'`, `'<td class="num">Ann'`) is found where an
  element of that name and attributes starts with what the needle gives it.
* page text — what a person reads: the texts of the body in order, a space where a
  block-level element starts or ends, whitespace collapsed (`html_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

WHITESPACE = re.compile(r"[\t\n\f\r ]+")


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Elements whose edges a browser's whitespace does not reach (display: block, list-item,
# table parts; `br` ends a line; the head's and hidden ones render nothing).
BLOCK = _names(
    """
    address article aside blockquote body br caption col colgroup dd details dialog div dl
    dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html
    legend li link main menu meta nav noscript ol optgroup option p script search section
    style summary table tbody td template tfoot th thead title tr ul
    """
)
VOID = _names("area base br col embed hr img input link meta source track wbr")
# Laid out as a box of their own inside a line (their inside starts a line of its own).
INLINE_BLOCK = _names("button iframe img input meter object progress select svg textarea video")
KEEP_WHITESPACE = _names("pre textarea")
UNSEEN = _names("head script style template")
BOOLEAN = _names(
    """
    allowfullscreen async autofocus autoplay checked controls default defer disabled
    formnovalidate hidden inert ismap itemscope loop multiple muted nomodule novalidate open
    playsinline readonly required reversed selected
    """
)


@dataclass(eq=True)
class Element:
    name: str
    attributes: tuple[tuple[str, str | None], ...] = ()
    children: list[Element | str] = field(default_factory=list)
    # Left open where the markup ended (a needle's unclosed tag): only its start is given.
    unclosed: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        attributes = "".join(
            f" {key}" if value is None else f' {key}="{value}"' for key, value in self.attributes
        )
        if self.name in VOID:
            return f"<{self.name}{attributes}>"
        inner = "".join(str(child) for child in self.children)
        return f"<{self.name}{attributes}>{inner}</{self.name}>"


def _attributes(pairs: list[tuple[str, str | None]]) -> tuple[tuple[str, str | None], ...]:
    normal = []
    for name, value in pairs:
        if name == "class" and value:
            value = " ".join(sorted(WHITESPACE.split(value.strip())))
        if name in BOOLEAN and (not value or value == name):
            value = None
        elif value is None:
            value = ""
        normal.append((name, value))
    return tuple(sorted(normal))


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("")
        self.open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, _attributes(attrs))
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        # An end tag closes the nearest open element of its name (and what it holds);
        # a stray end tag is ignored, as a browser does.
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].name == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        children = self.open[-1].children
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


@dataclass
class _Flow:
    """Where a walk through the page is in its current line: at the line's start, after a
    space or after other content, and the last text so far (to drop its end's space when
    the line ends)."""

    after: str = "start"  # "start", "space" or "content"
    last: tuple[list[Element | str], int] | None = None

    def end_line(self) -> None:
        if self.last is not None:
            children, index = self.last
            children[index] = str(children[index]).rstrip(" ")
        self.after, self.last = "start", None


def _normalise(element: Element, flow: _Flow, keep: bool = False, needle: bool = False) -> None:
    """Whitespace as a browser renders it (see "rendered whitespace" above), in place: a
    run is one space, and a space is dropped after another (even across an inline
    element's edge) and at a line's start and end."""
    keep = keep or element.name in KEEP_WHITESPACE
    own_line = element.name in BLOCK or element.name in INLINE_BLOCK or not element.name
    if own_line:
        flow.end_line()
    children: list[Element | str] = []
    for child in element.children:
        if isinstance(child, Element):
            children.append(child)
            if child.name in UNSEEN:
                continue
            _normalise(child, flow, keep)
            if child.name in VOID and child.name not in BLOCK:
                flow.after, flow.last = "content", None
            continue
        if keep:
            children.append(child)
            flow.after, flow.last = "content", None
            continue
        text = WHITESPACE.sub(" ", child)
        if text.startswith(" ") and flow.after != "content":
            text = text[1:]
        if text:
            children.append(text)
            flow.after = "space" if text.endswith(" ") else "content"
            flow.last = (children, len(children) - 1)
    element.children = children
    if own_line and not needle:
        flow.end_line()
    if element.name in INLINE_BLOCK:
        flow.after = "content"


def _drop_empty(element: Element) -> None:
    element.children = [child for child in element.children if child != ""]
    for child in element.children:
        if isinstance(child, Element):
            _drop_empty(child)


def parse(markup: str | bytes, needle: bool = False) -> Element:
    """The parsed HTML of a page or fragment, whitespace as rendered: its root has no name.
    A `needle`'s end is not a line's end (what follows it in a page is not known): only
    whitespace after its last node is dropped, not a space that ends its last element."""
    if isinstance(markup, bytes):
        markup = markup.decode()
    parser = _Parser()
    parser.feed(markup)
    parser.close()
    for element in parser.open[1:]:
        element.unclosed = True
    flow = _Flow()
    _normalise(parser.root, flow, needle=needle)
    children = parser.root.children
    if needle and children and isinstance(children[-1], str):
        children[-1] = children[-1].rstrip(" ")
    _drop_empty(parser.root)
    return parser.root


def _same(wanted: Element | str, found: Element | str, first: bool, last: bool) -> bool:
    """One sibling of a needle against one of the page: a first text may end a longer
    text, a last one start it; an unclosed element only starts the same."""
    if isinstance(wanted, str):
        if not isinstance(found, str):
            return False
        return (
            wanted == found
            or (first and found.endswith(wanted))
            or (last and found.startswith(wanted))
        )
    if not isinstance(found, Element):
        return False
    if not wanted.unclosed:
        return wanted == found
    if (wanted.name, wanted.attributes) != (found.name, found.attributes):
        return False
    return _matches_at(found.children, 0, wanted.children, inner=True)


def _matches_at(
    children: list[Element | str], start: int, needle: list[Element | str], inner: bool = False
) -> bool:
    """`needle` is the run of `children` from `start` (`inner`: the start of an unclosed
    element's children, whose last one may be cut short too)."""
    if start + len(needle) > len(children):
        return False
    last = len(needle) - 1
    for offset, wanted in enumerate(needle):
        edge_first = offset == 0 and last > 0 and not inner
        edge_last = offset == last and (last > 0 or inner)
        if not _same(wanted, children[start + offset], edge_first, edge_last):
            return False
    return True


def _count(element: Element, needle: list[Element | str]) -> int:
    found = 0
    children = element.children
    if len(needle) == 1 and isinstance(needle[0], str):
        found += sum(child.count(needle[0]) for child in children if isinstance(child, str))
    else:
        found += sum(_matches_at(children, start, needle) for start in range(len(children)))
    for child in children:
        if isinstance(child, Element):
            found += _count(child, needle)
    return found


def count_in_html(needle: str, haystack: str | bytes) -> int:
    """How many times the fragment `needle` occurs in the parsed HTML `haystack`."""
    wanted = parse(needle, needle=True).children
    if not wanted:
        raise ValueError(f"nothing to look for in {needle!r}")
    return _count(parse(haystack), wanted)


def _like(element: Element, name: str, limit: int = 3) -> list[str]:
    """Up to `limit` elements named `name`, for a failure's message."""
    found: list[str] = []
    for child in element.children:
        if isinstance(child, Element):
            if child.name == name and len(found) < limit:
                found.append(str(child)[:300])
            found.extend(_like(child, name, limit - len(found)))
    return found[:limit]


def assert_in_html(needle: str, haystack: str | bytes, count: int | None = None) -> None:
    """`needle` is in the page `haystack` (exactly `count` times if given), both read as
    parsed HTML with their rendered whitespace (see the terms above)."""
    found = count_in_html(needle, haystack)
    if found if count is None else found == count:
        return
    wanted = parse(needle, needle=True)
    expected = "at least once" if count is None else f"{count} times"
    message = f"{''.join(map(str, wanted.children))!r} found {found} times, expected {expected}"
    first = wanted.children[0]
    if isinstance(first, Element):
        similar = _like(parse(haystack), first.name)
        if similar:
            message += "; the page's <" + first.name + ">s include:\n" + "\n".join(similar)
    raise AssertionError(message)


def assert_not_in_html(needle: str, haystack: str | bytes) -> None:
    """`needle` is nowhere in the page `haystack` (read as `assert_in_html` reads it)."""
    assert_in_html(needle, haystack, count=0)


def _texts(node: Element | str, out: list[str]) -> None:
    if isinstance(node, str):
        out.append(node)
        return
    if node.name in UNSEEN:
        return
    if node.name in BLOCK:
        out.append(" ")
    for child in node.children:
        _texts(child, out)
    if node.name in BLOCK:
        out.append(" ")


def html_text(haystack: str | bytes) -> str:
    """The page's text as a person reads it, whitespace collapsed (see "page text")."""
    out: list[str] = []
    _texts(parse(haystack), out)
    return WHITESPACE.sub(" ", "".join(out)).strip()
