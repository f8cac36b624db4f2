"""Adapters to the tools researchers use: OpenSpiel (`openspiel.py`) and PettingZoo
(`pettingzoo.py`). They know no game: every compiled game in generated/ is offered. Install
them with `pip install -e '.[rl]'`.
"""
