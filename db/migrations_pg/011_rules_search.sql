-- Rules full-text search on PostgreSQL (issue 18): the counterpart of SQLite's FTS5 index of 002.
--
-- What is indexed is the text Python already stemmed for FTS5 (``document.stemmed``: lower-case,
-- Snowball stem in the document's language, diacritics folded; gm/rules/search.py), through a
-- copy of the ``simple`` configuration with ``unaccent`` first, not the original text through
-- PostgreSQL's ``italian``/``english`` configurations. Why: query planning (each word stemmed in
-- every language, glossary phrases, typo corrections, prefixes) works in Python's stem space, and
-- must agree with the index on every form. PostgreSQL's own Snowball build, stop word lists and
-- parser put words elsewhere (stop words dropped, other stems for some words, ``310.2b`` one
-- token), so the same query would find other sections than on SQLite. ``simple`` keeps every
-- word, so positions (phrase distances) are those of FTS5; ``unaccent`` folds on both sides of
-- ``@@`` whatever reaches the index or a query without going through Python's fold.
--
-- Extensions belong to the database, not to a schema: they go to ``public`` (where a plain
-- CREATE EXTENSION puts them), so several schemas of one database (test runs) share them and
-- dropping one schema leaves them to the others; objects of this schema name them qualified.
-- Both are "trusted" extensions: the database owner may create them without being superuser.
DO $migration$
DECLARE
    home text := CASE WHEN EXISTS (SELECT FROM pg_namespace WHERE nspname = 'public')
                      THEN 'public' ELSE current_schema() END;
    unaccent_schema text;
    trgm_schema text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'unaccent') THEN
        EXECUTE format('CREATE EXTENSION unaccent SCHEMA %I', home);
    END IF;
    IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE format('CREATE EXTENSION pg_trgm SCHEMA %I', home);
    END IF;
    SELECT n.nspname INTO unaccent_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'unaccent';
    SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'pg_trgm';

    -- Created in this schema (the first of the search path), as the tables are.
    CREATE TEXT SEARCH CONFIGURATION tavolo_folded (COPY = pg_catalog.simple);
    EXECUTE format('ALTER TEXT SEARCH CONFIGURATION tavolo_folded ALTER MAPPING FOR asciiword, asciihword,'
                   ' hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart'
                   ' WITH %I.unaccent, simple', unaccent_schema);

    -- Title weight A, text weight B (db/rules.py ranks A over B as FTS5's bm25 weights titles).
    -- NULL = not indexed yet: rows copied from SQLite or stored before this migration, which
    -- gm/rules/corpus.py ``index_missing`` fills in (stemming is Python's, not SQL's).
    ALTER TABLE rules_sections ADD COLUMN tsv tsvector;
    CREATE INDEX rules_sections_tsv ON rules_sections USING gin (tsv);
    -- Every start-up asks for them: an index of nothing, most of the time.
    CREATE INDEX rules_sections_unindexed ON rules_sections (id) WHERE tsv IS NULL;

    -- Every indexed term of each document (what SQLite's fts5vocab lists), for typo correction
    -- by trigram similarity and for "does any term start with this" (the C collation lets the
    -- primary key's btree answer LIKE 'prefix%').
    CREATE TABLE rules_terms (
        term         TEXT   COLLATE "C" NOT NULL,
        document_id  BIGINT NOT NULL REFERENCES rules_documents (id) ON DELETE CASCADE,
        PRIMARY KEY (term, document_id)
    );
    CREATE INDEX rules_terms_by_document ON rules_terms (document_id);
    EXECUTE format('CREATE INDEX rules_terms_trigrams ON rules_terms USING gin (term %I.gin_trgm_ops)',
                   trgm_schema);

    -- The terms nearest each misspelled form, at most ``per_word`` each: candidates, of which Python
    -- keeps what it keeps from the whole vocabulary on SQLite (rapidfuzz ratio >= 80, gm/rules/search.py).
    -- A ratio of 80 allows a transposition in a five-letter word, which leaves two of its trigrams:
    -- hence a threshold far below pg_trgm's 0.3, and a length window (what a ratio of 80 permits)
    -- so that the many short words sharing a trigram or two do not crowd out the right one.
    EXECUTE format($function$
        CREATE FUNCTION rules_similar_terms(words text[], per_word integer) RETURNS SETOF text
        LANGUAGE sql STABLE SET pg_trgm.similarity_threshold = 0.1 AS $body$
            SELECT DISTINCT m.term FROM unnest(words) AS q(word) CROSS JOIN LATERAL (
                SELECT t.term FROM rules_terms t
                 WHERE t.term OPERATOR(%1$I.%%) q.word
                   AND length(t.term) BETWEEN length(q.word) - 2 AND length(q.word) * 3 / 2 + 1
                 GROUP BY t.term ORDER BY %1$I.similarity(t.term, q.word) DESC, t.term LIMIT per_word
            ) AS m
        $body$
    $function$, trgm_schema);
END
$migration$;
