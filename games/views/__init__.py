"""The games pages, one module per page or group of pages: `tournament` (a tournament's
own page), `standings`, `projector`, `rounds`, `entry` (the scorekeeper's table),
`overview` (confirmation queue, missing results), `players`, `stages`, `clubs`,
`seasons`, `event_files`, `table_links`; `caching` (ETags, the shared page cache). Their
forms are in `games.forms`, one module per page module. Routes are in games/urls.py."""
