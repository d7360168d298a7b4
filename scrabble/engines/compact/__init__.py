"""``compact-numba``, end to end: the worker's half (``table_side``: board and
rack -> candidate words from the compact signature table), the wire format
between the two services (``wire``), the gateway's client and transport
(``client``, ``transport``) and the engine the gateway calls (``engine``: the
worker's words fitted and scored with the gateway's board view)."""
