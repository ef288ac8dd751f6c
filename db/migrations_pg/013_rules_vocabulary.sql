-- Rules search vocabulary on PostgreSQL (issue 28): one row per distinct indexed term.
--
-- ``rules_terms`` (011) holds a row per (term, document): the same term once for every rulebook and
-- digest that uses it. Typo correction by trigram similarity then matched and ranked every copy of a
-- term (GROUP BY to fold them), and with the low threshold it needs that was most of the server's time
-- in a search (9 ms a misspelled form on the seed rulebooks). Here each term is stored once, with the
-- number of documents that hold it, and the trigram index moves to this table; the btree lookups of a
-- query (exact forms, prefixes) read it too.
--
-- The count is kept by statement triggers on ``rules_terms``, so every path that writes or removes
-- terms (an import, a rulebook removed and its terms gone by cascade, ``index_missing`` after a copy
-- from SQLite) keeps it right without knowing about it: a term two documents share survives the
-- removal of one of them. Rows are locked in term order, as concurrent imports insert them, so two
-- transactions touching the same terms wait for each other instead of deadlocking.
CREATE TABLE rules_vocabulary (
    term       TEXT    COLLATE "C" PRIMARY KEY,
    documents  INTEGER NOT NULL CHECK (documents > 0)
);

-- Existing databases: every term already indexed, with its documents.
INSERT INTO rules_vocabulary (term, documents) SELECT term, count(*) FROM rules_terms GROUP BY term;

CREATE FUNCTION rules_terms_added() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    INSERT INTO rules_vocabulary AS v (term, documents)
    SELECT term, count(*) FROM added GROUP BY term ORDER BY term
    ON CONFLICT (term) DO UPDATE SET documents = v.documents + EXCLUDED.documents;
    RETURN NULL;
END
$body$;

CREATE FUNCTION rules_terms_removed() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    PERFORM FROM rules_vocabulary v WHERE v.term IN (SELECT term FROM removed) ORDER BY v.term FOR UPDATE;
    -- The last document holding a term takes it away; the others leave it one document fewer.
    DELETE FROM rules_vocabulary v USING (SELECT term, count(*) AS n FROM removed GROUP BY term) r
     WHERE v.term = r.term AND v.documents <= r.n;
    UPDATE rules_vocabulary v SET documents = v.documents - r.n
      FROM (SELECT term, count(*) AS n FROM removed GROUP BY term) r
     WHERE v.term = r.term;
    RETURN NULL;
END
$body$;

CREATE FUNCTION rules_terms_emptied() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    DELETE FROM rules_vocabulary;
    RETURN NULL;
END
$body$;

CREATE TRIGGER rules_terms_added AFTER INSERT ON rules_terms
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION rules_terms_added();
CREATE TRIGGER rules_terms_removed AFTER DELETE ON rules_terms
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION rules_terms_removed();
CREATE TRIGGER rules_terms_emptied AFTER TRUNCATE ON rules_terms
    FOR EACH STATEMENT EXECUTE FUNCTION rules_terms_emptied();
-- Terms are written and removed, never changed: an UPDATE of rules_terms would bypass the count.

-- The trigram index and the typo search move here (the same candidates as 011's function: one row per
-- term there after GROUP BY, one row per term here by construction, in the same order).
--
-- fastupdate off: by default GIN queues new entries in a pending list that every search scans whole
-- until a vacuum merges it. After an import the whole index was that list (96 pages on the seed
-- rulebooks), and the planner, seeing its cost, scanned the table instead. Imports are rare and add a
-- few thousand terms at most; searches are every query.
--
-- enable_seqscan off, for the function's statement only: the planner counts the similarity test as
-- cheap as an equality, so on a table of a few thousand terms it prefers reading them all, computing
-- the similarity of each (9 ms a form on the seed rulebooks) to the index (0.1 to 0.5 ms).
DO $migration$
DECLARE
    trgm_schema text;
BEGIN
    SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'pg_trgm';
    DROP INDEX IF EXISTS rules_terms_trigrams;  -- no statement reads it any more; imports skip its upkeep
    EXECUTE format('CREATE INDEX rules_vocabulary_trigrams ON rules_vocabulary USING gin (term %I.gin_trgm_ops)'
                   ' WITH (fastupdate = off)', trgm_schema);
    EXECUTE format($function$
        CREATE OR REPLACE FUNCTION rules_similar_terms(words text[], per_word integer) RETURNS SETOF text
        LANGUAGE sql STABLE SET pg_trgm.similarity_threshold = 0.1 SET enable_seqscan = off AS $inner$
            SELECT DISTINCT m.term FROM unnest(words) AS q(word) CROSS JOIN LATERAL (
                SELECT t.term FROM rules_vocabulary t
                 WHERE t.term OPERATOR(%1$I.%%) q.word
                   AND length(t.term) BETWEEN length(q.word) - 2 AND length(q.word) * 3 / 2 + 1
                 ORDER BY %1$I.similarity(t.term, q.word) DESC, t.term LIMIT per_word
            ) AS m
        $inner$
    $function$, trgm_schema);
END
$migration$;

ANALYZE rules_vocabulary;
