"""The open event file: a whole tournament as one JSON document, written and read back.

Terms:
* event file — one JSON document (`format: rummitab-event-file`, `format_version: 1`)
  holding a tournament's rules and ranking, players, rounds with tables, seats and games,
  every version of every result with its racks, penalties (voided ones too), time
  extensions, check-in absences and the standings. Its JSON Schema is
  `games/schemas/event-file-1.schema.json` (draft 2020-12), served at
  `/api/v1/event-file.schema.json`; the schema's descriptions document every member.
* start number — how the document refers to a player everywhere (never a database id),
  so a document written by another tool needs no ids of ours.
* stages — the tournament's stages (qualification, semi-final, final, side events) in
  number order, each with its settings (cut, carry-over, race, re-seating), its entry
  list (`entries`: start number, seed rank, carried score) and its standings as the
  exporting site computed them (derived, like the tournament's standings: an import
  recomputes them). A round names its stage by number (`rounds[].stage`; absent or null:
  no stage, which belongs to stage 1). A file without stages (every file written before
  stages were exported) reads as before: the format's version stays 1, since a reader
  of version 1 that knows no stages refuses a file that has some rather than losing them.

Decisions where the rules are silent (docs/rules/decisions.md):
* Accounts do not travel. The document names who entered, confirmed, recorded or voided
  something by username, for the record; an import stamps the importing user in every
  such place (the original names stay in the document the organiser keeps) and keeps
  every timestamp. Staff, invitations, table links and seating plans are not exported.
* Club and member links are informative: an import links a player to no member and holds
  the tournament under no club, and is never `rated` (its games were rated, if at all,
  where they were played).
* divisions — the tournament's divisions (`divisions`: slug, name, order, prizes), each
  player's by slug (`players[].divisions`), a stage's by slug (`stages[].division`); the
  qualification slots (`tournament.qualify_slots`, `qualify_event`) and who qualified
  earlier (`players[].already_qualified`). All optional in a file: absent means none.
* Each player's tie-breaking lot travels with them (`Player.lot`), so the imported
  tournament ranks its ties exactly as the original did: the same standings, row for row,
  overall and in every stage.
* A stage's committed cut travels as its entry list; a cut not yet committed (a running
  stage closed later on the importing site) draws its lot at ties from the new
  tournament's id and slug, so a tie at that line may fall the other way there.
* A stage's settings are checked as the stage form checks them
  (`tournaments.services.stages.stage_settings_checked`); a side event names the main
  stage it comes from (`side_of`, a lower number), and only a side event names one.
* The document's standings are derived data: an import recomputes them from the results
  (the round-trip test checks that they come out the same) and does not read them.
* Who may import: any signed-in user, who becomes the new tournament's organiser, as for
  creating a tournament. A slug already taken is a 409 naming `tournament.slug` (unless
  another slug is given); a document that fails the schema, or whose references do not
  hold (a seat for an unknown start number, two confirmed versions of one game, ...), is a
  400 naming the JSON path of each problem. Nothing is saved then.
"""
