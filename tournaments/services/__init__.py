"""Writes of the tournaments layer, one module per part: `tournaments` (tournaments, and
staff added by username), `staff` (accounts, invitations, role changes, removal),
`players` (register, change, import a CSV), and `validation` (the checks they share).
Import from the module that holds it."""
