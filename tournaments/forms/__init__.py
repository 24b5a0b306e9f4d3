"""Web forms of the tournament pages, one module per feature as in `tournaments.views`:
organise (the tournament's settings), players, checkin, staff, webhooks, clubs, divisions.

A form here only turns what was typed into the values a service takes (text into whole
numbers, "none" into null, lines of start numbers into tables); every rule is checked by
the service, whose `RuleError` the view puts back on the fields (`web.add_rule_errors`).
Labels a person reads are marked for translation lazily (``gettext_lazy``): they are
defined at import, when no language is active yet.

The stage forms live with their pages in `games.forms.stages`.
"""
