"""How the page talks to Python: JSON requests in, JSON answers out (``bridge``), routed by the
figures' records (``records``, ``registry``), with the states' addresses (``urlstate``), the
requests one click away that the build precomputes (``neighbours``), the downloads (``export``)
and the matrix an answer may leave out (``delta``). The core (``attention``'s own modules)
never imports this package; it imports the core and the figures.
"""
