"""The log's entries, in order, each with the hash and signature it was published with."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from fairness import Entry


class LogEntry(models.Model):
    """One commitment (docs/FAIRNESS.md, section 2). Rows are only ever added."""

    class Kind(models.TextChoices):
        DAILY = "daily"
        SERVER_SEED = "server-seed"

    seq = models.PositiveBigIntegerField(primary_key=True)
    previous = models.CharField(max_length=64, unique=True)
    key_id = models.CharField(max_length=16)
    kind = models.CharField(max_length=11, choices=Kind.choices)
    game = models.CharField(max_length=20)
    subject = models.CharField(max_length=60, help_text="The date, match/<id> or race/<id>.")
    commitment = models.CharField(max_length=64)
    committed_at = models.DateTimeField()
    hash = models.CharField(max_length=64, unique=True)
    signature = models.CharField(max_length=88, help_text="Ed25519 over the body, base64.")

    class Meta:
        ordering = ["seq"]
        verbose_name_plural = "log entries"
        constraints = [
            models.UniqueConstraint(fields=["kind", "game", "subject"],
                                    name="fairness_one_commitment_per_subject"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="fairness_seq_from_one"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} {self.game} {self.subject}"

    def as_entry(self) -> Entry:
        from fairness import format_time

        return Entry(seq=self.seq, previous=self.previous, key_id=self.key_id, kind=self.kind,
                     game=self.game, subject=self.subject, commitment=self.commitment,
                     committed_at=format_time(self.committed_at))


class SeedCommitment(models.Model):
    """A match's or race's server seed and the client seeds mixed into its deal: secret until
    its game reveals them (the match or race is over)."""

    entry = models.OneToOneField(LogEntry, primary_key=True, on_delete=models.PROTECT,
                                 related_name="seeds")
    server_seed = models.CharField(max_length=64, help_text="32 random bytes, hex.")
    client_seeds = models.JSONField(default=list, help_text="Per seat in order; null: none.")

    def __str__(self) -> str:
        return f"seeds of {self.entry}"
