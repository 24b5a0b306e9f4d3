"""The REST API of the tournaments layer: `tournaments` (and staff), `players`, and
`common` (what every app's API views share)."""
