"""The operator's database commands: ``--check-db`` (``check_db``) and ``--copy-to-postgres``
(``copy_to_postgres``), run by bot.py before or instead of the bot."""
