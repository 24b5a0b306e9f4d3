"""tests/html.py: the page read as parsed HTML with its rendered whitespace."""

from __future__ import annotations

import pytest

from tests.html import assert_in_html, assert_not_in_html, count_in_html, html_text

PAGE = """<!doctype html>
<html><head><title>Club Open</title><style>td { color: red }</style></head>
<body>
  <table>
    <tr>
      <td class="num  wide">1</td>
      <td>
        <span
          class="nowrap"><bdi>Ann</bdi> +3</span>
      </td>
    </tr>
    <tr><td class="wide num">2</td><td><span class="nowrap"><bdi>Bob</bdi>+3</span></td></tr>
  </table>
  <p>Round 1 of 3<br>
     next &amp; last</p>
  <input type="checkbox" checked="checked" name="x">
  <pre>a  b</pre>
</body></html>
"""


def test_wrapping_between_attributes_and_block_tags_reads_the_same():
    assert_in_html('<span class="nowrap"><bdi>Ann</bdi> +3</span>', PAGE)
    assert_in_html(
        '<tr><td class="num wide">1</td>'
        '<td><span class="nowrap"><bdi>Ann</bdi> +3</span></td></tr>',
        PAGE,
    )


def test_whitespace_a_browser_drops_is_dropped_across_inline_edges():
    page = "<div>\n  <p>\n    <strong>\n      Ann</strong> <em> +3 </em>\n  </p>\n</div>"
    assert_in_html("<p><strong>Ann</strong> <em>+3</em></p>", page)
    assert_not_in_html("<p><strong>Ann</strong><em>+3</em></p>", page)
    assert html_text(page) == "Ann +3"


def test_a_space_between_inline_elements_counts():
    assert_not_in_html('<span class="nowrap"><bdi>Ann</bdi>+3</span>', PAGE)
    assert_not_in_html('<span class="nowrap"><bdi>Bob</bdi> +3</span>', PAGE)
    assert_in_html('<span class="nowrap"><bdi>Bob</bdi>+3</span>', PAGE)


def test_class_order_references_and_boolean_attributes_are_read_as_a_browser_does():
    assert_in_html('<td class="wide num">1</td>', PAGE)
    assert_in_html("next &amp; last", PAGE)
    assert_in_html("<input checked name=x type=checkbox>", PAGE)


def test_text_and_runs_of_siblings_are_found_inside_longer_ones():
    assert_in_html("Round 1", PAGE)
    assert_in_html("of 3<br>next", PAGE)
    assert_in_html("<bdi>Ann</bdi> +3", PAGE)
    assert_in_html("<bdi>Ann</bdi> +", PAGE)  # a last text may start a longer one
    assert_not_in_html("<bdi>Ann</bdi>+", PAGE)
    assert_in_html("<pre>a  b</pre>", PAGE)
    assert_not_in_html("<pre>a b</pre>", PAGE)


def test_an_unclosed_tag_is_found_where_an_element_starts_so():
    assert_in_html('<td class="num wide">', PAGE, count=2)
    assert_in_html('<td class="num wide">1', PAGE, count=1)
    assert_in_html('<span class="nowrap"><bdi>Bob</bdi>+', PAGE, count=1)
    assert_in_html("<bdi>", PAGE, count=2)
    assert_not_in_html('<span class="wide">', PAGE)
    assert_in_html("<bdi></bdi>", PAGE, count=0)  # closed: an empty one


def test_a_space_that_ends_a_needle_s_last_element_counts():
    page = '<td><span class="label">Games won </span>3</td>'
    assert_in_html('<span class="label">Games won </span>', page)
    assert_not_in_html('<span class="label">Games won</span>', page)
    assert_in_html("<td>1</td>\n", "<tr>\n<td>1</td>\n</tr>")


def test_count_counts_every_occurrence():
    assert count_in_html("+3", PAGE) == 2
    assert_in_html("+3", PAGE, count=2)
    with pytest.raises(AssertionError, match="found 2 times, expected 1 times"):
        assert_in_html("+3", PAGE, count=1)


def test_a_missing_fragment_names_what_the_page_has():
    with pytest.raises(AssertionError, match="Carol") as failure:
        assert_in_html('<span class="nowrap"><bdi>Carol</bdi></span>', PAGE)
    assert "<bdi>Ann</bdi> +3" in str(failure.value)


def test_page_text_is_what_a_person_reads():
    assert html_text(PAGE) == "1 Ann +3 2 Bob+3 Round 1 of 3 next & last a b"
    assert html_text(PAGE.encode()) == html_text(PAGE)
