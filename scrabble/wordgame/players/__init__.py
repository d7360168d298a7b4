"""WordGame players. Each is a ``referee.Player``: ``start(setup)`` then one
``act(turn)`` per turn returning the reply line; each tracks its own board."""
