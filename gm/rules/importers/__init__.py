"""Importers: raw rulebook text → ``list[Section]``.

``numbered`` handles comprehensive rules (``310.2b``), ``headings`` handles documents
structured by ALL-CAPS / Title Case / Markdown headings, ``paragraphs`` is the fallback.
``loader`` reads files (txt, md, pdf) within limits and picks the importer.
"""
