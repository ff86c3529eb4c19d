"""The web page for players: a local server (``smear-sim serve``) with a JSON API over the analysis and a
plain HTML, CSS and JavaScript page under ``static/`` (no build step, nothing from the network).

Needs the ``web`` extra (FastAPI and uvicorn): ``pip install 'smear-sim[web]'``.
"""
