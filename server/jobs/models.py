"""The job queue's rows: the jobs themselves, and the leases of the periodic passes that must
run in one process at a time."""

from __future__ import annotations

from django.db import models


class Job(models.Model):
    """Work done in the background, one per kind and key; its kind is a task an app
    registered (``background.register_task``).

    A job is claimed by flipping it from pending to running in one compare-and-set statement,
    which counts the attempt, so the in-process runner and a ``run_jobs`` worker never run the
    same job twice and a job whose process died still uses up its attempts.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    kind = models.CharField(max_length=16, help_text="The task, as its app registered it.")
    key = models.CharField(max_length=64,
                           help_text="What it works on: a daily's date, a game's or a match's id.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Claims so far.")
    error = models.TextField(blank=True, default="", help_text="Why the last attempt failed.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    run_after = models.DateTimeField(null=True, blank=True,
                                     help_text="A retry waits until then.")

    class Meta:
        # The games app made the table, before the queue served more than one game.
        db_table = "games_job"
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="job_once_per_kind_and_key"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="job_status_created")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} ({self.status})"


class Lease(models.Model):
    """Which process may run a periodic pass (``name``) until ``expires_at``. Taken by
    compare-and-set on this row, so of the processes that ask at once exactly one gets it, on
    PostgreSQL and SQLite alike."""

    name = models.CharField(max_length=64, primary_key=True)
    holder = models.CharField(max_length=64, blank=True, default="",
                              help_text="The host and process id that took it last.")
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} (until {self.expires_at:%Y-%m-%d %H:%M:%S})"
