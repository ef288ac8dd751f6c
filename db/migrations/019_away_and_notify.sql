-- Vacation and the reminders people choose (issue 32.3 and 32.4).
-- ``vacations``: one row per member on a server while they are (or will be) away; ``/game back`` deletes
-- it, and a row whose ``ends_at`` has passed means nothing (it is replaced by the next ``/game away``).
-- Stamps are ISO UTC as gm/timefmt.py writes them, so strings compare in time order.
CREATE TABLE vacations (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    starts_at   TEXT    NOT NULL,
    ends_at     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX vacations_by_end ON vacations (guild_id, ends_at);
-- ``notify_prefs``: how one member wants turn reminders on one server. No row = the default (a mention
-- in the channel, no quiet hours, no digest). ``quiet_start``/``quiet_end``: local hours (0-23) in ``tz``.
CREATE TABLE notify_prefs (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mode        TEXT    NOT NULL DEFAULT 'mention' CHECK (mode IN ('mention', 'dm', 'none')),
    quiet_start INTEGER,
    quiet_end   INTEGER,
    tz          TEXT,
    digest      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);
-- ``reminder_outbox``: a nudge owed to one member that waits (away, quiet hours, the daily digest) until
-- ``send_after``. The position's claim in ``games`` is confirmed when the nudge is put here; the row is
-- then claimed (``claimed_at``, a lease as reminder_claims') and deleted once posted. A row whose game
-- has moved on (``version``) is dropped unsent.
CREATE TABLE reminder_outbox (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    send_after  TEXT    NOT NULL,
    claimed_at  TEXT,
    PRIMARY KEY (guild_id, user_id, game_id)
);
CREATE INDEX reminder_outbox_by_time ON reminder_outbox (send_after);
