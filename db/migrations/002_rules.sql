-- Rules lookup corpus (issue 4): documents split into sections, plus an FTS5 index.
-- guild_id NULL = global (built-in digests, RULES_DIR); otherwise a per-server import.
CREATE TABLE rules_documents (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER,
    system         TEXT    NOT NULL,
    language       TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    title          TEXT    NOT NULL,
    source         TEXT    NOT NULL CHECK (source IN ('builtin', 'rules_dir', 'import')),
    importer       TEXT    NOT NULL,
    sha256         TEXT    NOT NULL,
    section_count  INTEGER NOT NULL DEFAULT 0,
    created_by     INTEGER,
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- One document per name per scope: a re-import replaces it.
CREATE UNIQUE INDEX rules_documents_name ON rules_documents (COALESCE(guild_id, 0), system, name);

CREATE TABLE rules_sections (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id  INTEGER NOT NULL REFERENCES rules_documents (id) ON DELETE CASCADE,
    section_id   TEXT    NOT NULL,
    parent_id    TEXT,
    ordinal      INTEGER NOT NULL,
    title        TEXT    NOT NULL DEFAULT '',
    text         TEXT    NOT NULL DEFAULT '',
    ref          TEXT,
    UNIQUE (document_id, section_id)
);
CREATE INDEX rules_sections_children ON rules_sections (document_id, parent_id, ordinal);
CREATE INDEX rules_sections_by_id ON rules_sections (section_id);

-- Stemmed text (stemmed in Python per document language); rowid = rules_sections.id.
-- The original text stays in rules_sections for display and snippets.
CREATE VIRTUAL TABLE rules_fts USING fts5 (
    title, body,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);
-- The index vocabulary, for typo correction.
CREATE VIRTUAL TABLE rules_fts_vocab USING fts5vocab (rules_fts, 'row');

CREATE TRIGGER rules_sections_fts_delete AFTER DELETE ON rules_sections BEGIN
    DELETE FROM rules_fts WHERE rowid = old.id;
END;
