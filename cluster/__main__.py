"""``python -m cluster start|stop|status``: ``make cluster`` and ``make cluster-stop``."""

from __future__ import annotations

import sys

from cluster.topology import Cluster


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    cluster = Cluster()
    if command == "start":
        try:
            cluster.start()
        except BaseException:
            cluster.stop()
            raise
        t = cluster.topology
        print(f"  HAProxy       {t.host} (round robin over "
              + ", ".join(f"{name} :{port}" for name, port in
                          zip(t.node_names(), t.node_ports, strict=True)) + ")")
        print(f"  PgBouncer     127.0.0.1:{t.pgbouncer_port} (transaction mode) -> primary "
              f"127.0.0.1:{t.primary_port}, replica 127.0.0.1:{t.replica_port}")
        print(f"  Redis         127.0.0.1:{t.redis_port}; jobs workers: {t.jobs_workers}")
        print(f"  Prometheus    {t.prometheus_url} (scraping both nodes' /metrics; the token in "
              f"{t.metrics_token_file})")
        print(f"  database      {t.database}; logs in {t.logs}; `make cluster-stop` ends it")
    elif command == "stop":
        cluster.stop()
        print("cluster: stopped, nothing left behind")
    elif command == "status":
        parts = cluster.status()
        if not parts or not any(parts.values()):
            print("cluster: not running")
            return 1
        for name, alive in sorted(parts.items()):
            print(f"  {name:10} {'up' if alive else 'DOWN'}")
    else:
        raise SystemExit("usage: python -m cluster start|stop|status")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
