"""The cluster on one machine: HAProxy, two app nodes, two jobs workers, PgBouncer, a PostgreSQL
primary and its streaming replica, Redis (``make cluster``; ``cluster.topology`` says how)."""
