"""Text typed by people, isolated from the page's direction.

A player's name, a club, a tournament's or a stage's name may be Latin inside a Hebrew
page or Hebrew inside an English one. Put beside other text without isolation, the
browser's bidirectional algorithm lets its neutral characters (digits, "+", ".", "(")
join the surrounding direction: "Utrecht 30+" in a right-to-left sentence shows as
"+Utrecht 30". `<bdi>` gives such text its own direction, taken from its first strong
character, so it reads as typed whatever the page's language.

Terms:
* free text — anything a person typed (names, clubs, notes), never the site's own words.
* person — `{{ user|person }}`: a user's display name (`tournaments.people`), isolated as
  free text is ("Table 1, round 1" for a table link's user, else the username).
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.people import user_display_name

register = template.Library()


@register.filter(is_safe=True)
def bdi(value: object) -> SafeString | str:
    """`value`, escaped, inside `<bdi>` (an empty value stays empty: no stray element).
    Safe to pass into `{% blocktranslate with name=...|bdi %}`: the message's msgid keeps
    its plain placeholder, so the catalogs need no change."""
    if value is None or value == "":
        return ""
    return format_html("<bdi>{}</bdi>", value)


@register.filter(is_safe=True)
def person(user: object) -> SafeString | str:
    """`user`'s display name (`tournaments.people.user_display_name`) inside `<bdi>`."""
    return bdi(user_display_name(user))
