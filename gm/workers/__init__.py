"""Work done outside the event loop, in child processes: board pictures (``render_pool``, its
``render_queue`` and the fork server's ``render_warm``) and the parsing of untrusted uploads within
a time and memory budget (``offload``), plus the heap freeze (``heap``) they and the bot share.
"""
