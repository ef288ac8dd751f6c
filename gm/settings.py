"""Runtime settings from the environment and ``.env`` (pydantic-settings).

Every key is documented in ``.env.example``. The two ``TAVOLO_DISCORD_*`` keys exist
only so the end-to-end tests can point the unchanged bot at a loopback fake Discord.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from db.dialect import is_postgres_url

if TYPE_CHECKING:
    from db.store import Store


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str | None = Field(default=None, alias="DISCORD_TOKEN")
    database_path: Path = Field(default=Path("./data/tavolo.sqlite3"), alias="DATABASE_PATH")
    # A postgresql:// URL selects PostgreSQL; a file path (or sqlite:///path) is the SQLite file.
    database_url: str | None = Field(default=None, alias="DATABASE_URL")
    database_pool_size: int = Field(default=10, ge=1, le=500, alias="DATABASE_POOL_SIZE")  # PostgreSQL only
    # PostgreSQL only: a channel lock's lease; a frozen holder blocks its channel this long (db/pg_store.py).
    database_lock_lease_seconds: float = Field(default=30.0, ge=0, le=3600, alias="DATABASE_LOCK_LEASE_SECONDS")
    # Gateway sharding (gm/shards.py): SHARD_COUNT shards in all, this process runs SHARD_IDS ("0-3").
    shard_count: int | None = Field(default=None, ge=1, le=4096, alias="SHARD_COUNT")
    shard_ids: str | None = Field(default=None, max_length=2000, alias="SHARD_IDS")
    dev_guild_id: int | None = Field(default=None, alias="DEV_GUILD_ID")
    default_locale: str = Field(default="en", alias="DEFAULT_LOCALE")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")
    gm_role: str = Field(default="GM", alias="GM_ROLE")
    rules_dir: Path | None = Field(default=None, alias="RULES_DIR")
    turn_reminder_hours: float = Field(default=24.0, ge=0, le=24 * 30, alias="TURN_REMINDER_HOURS")
    turn_reminder_check_seconds: float = Field(default=600.0, ge=0.2, le=86400, alias="TURN_REMINDER_CHECK_SECONDS")
    # A reminder claimed but never confirmed as posted (its process died) is taken again after this long.
    turn_reminder_lease_seconds: float = Field(default=600.0, ge=1, le=86400, alias="TURN_REMINDER_LEASE_SECONDS")
    end_vote_minutes: int = Field(default=60, ge=0, le=7 * 24 * 60, alias="END_VOTE_MINUTES")
    lobby_idle_hours: float = Field(default=48.0, ge=0, le=30 * 24, alias="LOBBY_IDLE_HOURS")
    rules_import_seconds: float = Field(default=60.0, gt=0, le=3600, alias="RULES_IMPORT_SECONDS")
    rules_import_memory_mb: int = Field(default=512, ge=16, le=65536, alias="RULES_IMPORT_MEMORY_MB")
    content_pack_seconds: float = Field(default=10.0, gt=0, le=600, alias="CONTENT_PACK_SECONDS")
    content_pack_memory_mb: int = Field(default=256, ge=16, le=65536, alias="CONTENT_PACK_MEMORY_MB")
    offload_max_jobs: int = Field(default=2, ge=1, le=64, alias="OFFLOAD_MAX_JOBS")
    # The table cache (gm/table/cache.py): a budget in bytes for every table it keeps, whole or packed
    # (no count bound), and how many of the most recently used stay whole with their parsed state.
    table_cache_mb: int = Field(default=64, ge=1, le=65536, alias="TABLE_CACHE_MB")
    table_cache_parsed: int = Field(default=16, ge=1, le=100000, alias="TABLE_CACHE_PARSED")
    render_pool: Literal["process", "thread"] = Field(default="process", alias="RENDER_POOL")
    render_workers: int = Field(default=2, ge=1, le=32, alias="RENDER_WORKERS")
    render_timeout_seconds: float = Field(default=10.0, gt=0, le=300, alias="RENDER_TIMEOUT_SECONDS")
    discord_api_base: str | None = Field(default=None, alias="TAVOLO_DISCORD_API_BASE")
    discord_gateway: str | None = Field(default=None, alias="TAVOLO_DISCORD_GATEWAY")
    dice_seed: int | None = Field(default=None, alias="TAVOLO_DICE_SEED")  # replays and tests only
    # The web pages (issue 31, web/, docs/WEB.md): off unless WEB_PORT is set.
    web_port: int | None = Field(default=None, ge=1, le=65535, alias="WEB_PORT")
    web_host: str = Field(default="127.0.0.1", max_length=200, alias="WEB_HOST")
    web_base_url: str | None = Field(default=None, max_length=500, alias="WEB_BASE_URL")
    web_secret: str | None = Field(default=None, min_length=16, max_length=500, alias="WEB_SECRET")
    web_link_days: float = Field(default=30.0, gt=0, le=3650, alias="WEB_LINK_DAYS")
    web_image_cache_mb: int = Field(default=32, ge=1, le=65536, alias="WEB_IMAGE_CACHE_MB")
    web_trust_forwarded: bool = Field(default=False, alias="WEB_TRUST_FORWARDED")

    @field_validator("discord_token", "database_url", "dev_guild_id", "rules_dir", "discord_api_base",
                     "discord_gateway", "dice_seed", "shard_count", "shard_ids", "web_port", "web_base_url",
                     "web_secret", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        """``KEY=`` in ``.env`` means "not set", not an empty string or a parse error."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_lock_lease_seconds")
    @classmethod
    def _lease_or_off(cls, value: float) -> float:
        """A lease shorter than a few round trips would end live holders' locks: 0 (off) or at least 0.5 s."""
        if 0 < value < 0.5:
            raise ValueError("DATABASE_LOCK_LEASE_SECONDS is 0 (no bound) or at least 0.5")
        return value

    @field_validator("log_level")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()

    @model_validator(mode="after")
    def _shards_make_sense(self) -> Settings:
        """A shard range that cannot work is said at start (``bot.py`` prints it), not at the first event."""
        from gm.shards import ShardPlan

        ShardPlan.from_values(self.shard_count, self.shard_ids)
        return self

    @model_validator(mode="after")
    def _sqlite_url_is_a_path(self) -> Settings:
        """``DATABASE_URL`` naming a SQLite file is ``DATABASE_PATH``: one place says where the
        file is, so everything that reads ``database_path`` (the console, ``--check-db``) agrees."""
        url = self.database_url
        if url is not None and not is_postgres_url(url):
            self.database_path = Path(url.removeprefix("sqlite:///").removeprefix("sqlite://"))
            self.database_url = None
        return self

    @property
    def uses_postgres(self) -> bool:
        return self.database_url is not None

    def database_target(self) -> str | Path:
        """What ``db.backend.open_store`` is given: the PostgreSQL URL, else the SQLite file."""
        return self.database_url if self.database_url is not None else self.database_path

    def ensure_database_folder(self) -> None:
        if str(self.database_path) != ":memory:":
            self.database_path.parent.mkdir(parents=True, exist_ok=True)

    async def open_store(self) -> Store:
        """The store these settings name: ``DATABASE_URL`` when it is a PostgreSQL URL, else the SQLite
        file at ``DATABASE_PATH`` (whose folder is created)."""
        from db.backend import open_store

        if not self.uses_postgres:
            self.ensure_database_folder()
        return await open_store(self.database_target(), pool_size=self.database_pool_size,
                                lock_lease_seconds=self.database_lock_lease_seconds)
