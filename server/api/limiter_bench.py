"""What the rate limiter costs an action: the CPU of one ``throttling.verdict_with`` as the
Spite & Malice action path calls it (its token's and its address's windows, the seat's presence
slots read, the match's latest event number written), in this process and in Redis.

``python -m server.api.limiter_bench [--calls 20000]`` (``make bench-limiter``) needs Redis
(``REDIS_URL``, default the tests' database 15, keys under a prefix of its own, deleted after).
The calls are spread over 100 tokens and 10 addresses, so every window fills to a realistic
size (up to 200 and 2,000 requests, under the default limits of 300 and 3,000 a minute) and
none is refused. It prints, per call: the Python CPU (``time.process_time``), the Redis
server's CPU (``INFO cpu``, both user and system), their sum and the wall-clock p50/p95.
Run it before and after a change to the limiter in one sitting, and compare the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from typing import Any


def _redis_cpu(client: Any) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    arguments = parser.parse_args(argv)
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    prefix = f"limiter-bench-{uuid.uuid4().hex[:8]}"
    os.environ.update({"REDIS_URL": url, "REDIS_KEY_PREFIX": prefix,
                       "DJANGO_SETTINGS_MODULE": "server.settings"})
    import django
    import redis

    django.setup()
    from django.conf import settings

    from server.api import throttling

    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "moves.token": "300/min",
                               "moves.address": "3000/min"}
    client = redis.Redis.from_url(url)
    latencies = []
    refused = 0
    warm = min(500, arguments.calls // 10)
    cpu_start = redis_start = 0.0
    for call in range(-warm, arguments.calls):
        if call == 0:
            cpu_start, redis_start = time.process_time(), _redis_cpu(client)
        began = time.perf_counter()
        verdict, _ = throttling.verdict_with(
            scope="moves", token_id=f"token-{call % 100}", address=f"10.0.0.{call % 10}",
            reads=[f"presence:{call % 50}:0", f"presence:{call % 50}:1"],
            writes=[(f"latest:{call % 50}", call, 600)])
        latencies.append(time.perf_counter() - began)
        refused += verdict is not None
    python_ms = (time.process_time() - cpu_start) * 1000 / arguments.calls
    redis_ms = (_redis_cpu(client) - redis_start) * 1000 / arguments.calls
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    latencies = sorted(latencies[warm:])
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(len(latencies) * 0.95)] * 1000
    print(f"limiter: {arguments.calls} calls, {refused} refused; per call: Python CPU "
          f"{python_ms:.3f} ms + Redis CPU {redis_ms:.3f} ms = {python_ms + redis_ms:.3f} ms; "
          f"wall p50 {p50:.3f} ms, p95 {p95:.3f} ms; load average "
          f"{os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
