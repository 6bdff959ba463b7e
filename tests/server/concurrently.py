"""Threads released together against the real database, for the tests of races: who wins,
and that the loser changes nothing."""

import threading

from django.db import connection

THREADS = 6


def race(action, count=THREADS):
    """Run ``action(i)`` in ``count`` threads released together; returns their results."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(index):
        try:
            barrier.wait(timeout=10)
            results[index] = action(index)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results
