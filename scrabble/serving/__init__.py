"""How the two services run: the HTTP protocol with its limits and timeouts,
the server start-up and graceful shutdown, the process's memory settings
(``docs/service.md``)."""
