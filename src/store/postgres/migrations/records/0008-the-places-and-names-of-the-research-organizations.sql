-- name: the places and names of the research organizations and funders read through them, not stored per record
-- Records migration 8 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
DELETE FROM publication_values WHERE field IN ('7', '8', '9', '10', '11', '12', '13');
DELETE FROM grant_values WHERE field IN ('7', '8', '9', '10', '11', '12', '13');
