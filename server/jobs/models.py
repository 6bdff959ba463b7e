"""The job queue's rows: the jobs themselves, the leases of the periodic passes that must
run in one process at a time, and the heartbeats that tell which processes of the service are
alive (``server.jobs.liveness``)."""

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
    # When its work was recorded: as it was made, and again each time new work makes a
    # finished job pending again (a match's next bot turn: background._again).
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    run_after = models.DateTimeField(null=True, blank=True,
                                     help_text="A retry waits until then.")
    again = models.BooleanField(
        default=False, help_text="New work was recorded for it while it ran: it runs once more.")
    priority = models.PositiveSmallIntegerField(
        default=0, help_text="Claimed before every job of a higher number: 0 for what a match "
                             "waits on (a bot's turn), more for analyses and preparation.")

    class Meta:
        # The games app made the table, before the queue served more than one game.
        db_table = "games_job"
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="job_once_per_kind_and_key"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="job_status_created"),
                   models.Index(fields=["status", "priority", "created_at"],
                                name="job_status_priority_created")]

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


class Heartbeat(models.Model):
    """A process of the service (an app server's worker, or a ``run_jobs`` worker) and when it
    last said it was alive; refreshed every few seconds by its clock thread. A process whose
    beat is older than ``liveness.ALIVE_SECONDS`` has stopped or hangs."""

    class Role(models.TextChoices):
        APP = "app"
        WORKER = "worker"

    holder = models.CharField(max_length=64, primary_key=True,
                              help_text="The host and process id.")
    role = models.CharField(max_length=8, choices=Role.choices)
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.role} {self.holder} (alive at {self.beat_at:%Y-%m-%d %H:%M:%S})"


class Liveness(models.Model):
    """The service's last sign of life (one row): the latest heartbeat of any of its
    processes. A heartbeat that finds it older than the allowed gap ends an outage, and moves
    it on by compare-and-set, so exactly one process handles each outage."""

    alive_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"the service alive at {self.alive_at.isoformat()}"
