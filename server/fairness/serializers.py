"""The fairness API's query parameters and the documented shapes it returns."""

from __future__ import annotations

from rest_framework import serializers

from server.api.fields import QueryIntegerField
from server.api.inputs import StrictQuery
from server.fairness.models import LogEntry
from server.fairness.selectors import DailyCommitment

MAX_LIMIT = 100
DEFAULT_LIMIT = 50
LOG_LIMIT = 500
MAX_SEQ = 2**63 - 1


class CommitmentQuery(StrictQuery):
    game = serializers.CharField(max_length=40, help_text="`foursquare` or `spitemalice`.")
    from_ = serializers.DateField(required=False, help_text="The first date (default: 30 "
                                                            "days before `to`).")
    to = serializers.DateField(required=False, help_text="The last date (default: 8 days "
                                                         "after today in UTC).")
    limit = QueryIntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT,
                              help_text=f"Dates per page, 1-{MAX_LIMIT}.")
    cursor = serializers.DateField(required=False, help_text="From the previous page's `next`.")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class LogQuery(StrictQuery):
    after = QueryIntegerField(min_value=0, max_value=MAX_SEQ, default=0,
                              help_text="The entries after this seq.")
    limit = QueryIntegerField(min_value=1, max_value=LOG_LIMIT, default=LOG_LIMIT,
                              help_text=f"Entries per page, 1-{LOG_LIMIT}.")


KEY_ID_PATTERN = "^[0-9a-f]{16}$"


class KeyQuery(StrictQuery):
    key_id = serializers.RegexField(KEY_ID_PATTERN, required=False,
                                    help_text="16 lowercase hex digits.")


class FairnessEntryOutput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The entry's number in the log, from 1.")
    previous = serializers.CharField(help_text="The hash of the entry before (64 zeros for 1).")
    hash = serializers.CharField(help_text="SHA-256 of the entry's body, hex.")
    key_id = serializers.CharField(help_text="Which key signed it.")
    signature = serializers.CharField(help_text="Ed25519 over the body, base64.")


class FairnessLogEntryOutput(FairnessEntryOutput):
    kind = serializers.ChoiceField(choices=LogEntry.Kind.choices)
    game = serializers.CharField()
    subject = serializers.CharField(help_text="The date, `match/<id>` or `race/<id>`.")
    commitment = serializers.CharField()
    committed_at = serializers.CharField(help_text="UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`.")


class LogPageOutput(serializers.Serializer):
    entries = FairnessLogEntryOutput(many=True)
    next = serializers.URLField(allow_null=True, help_text="The next page, if any.")


class DailyCommitmentOutput(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    commitment = serializers.CharField(help_text="SHA-256 of the daily's encoding, hex.")
    committed_at = serializers.CharField(help_text="UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`.")
    first_played_at = serializers.DateTimeField(allow_null=True,
                                                help_text="When its first game started.")
    late = serializers.BooleanField(help_text="Served before it was committed.")
    seed = serializers.CharField(allow_null=True, help_text="Once the date is over everywhere.")
    attempt = serializers.IntegerField(allow_null=True,
                                       help_text="Once the date is over everywhere.")
    deck = serializers.ListField(child=serializers.CharField(), allow_null=True,
                                 help_text="The deal as served, once revealed.")
    entry = FairnessEntryOutput()


class CommitmentPageOutput(serializers.Serializer):
    entries = DailyCommitmentOutput(many=True)
    next = serializers.URLField(allow_null=True, help_text="The next page, if any.")


class KeyOutput(serializers.Serializer):
    algorithm = serializers.CharField()
    key_id = serializers.CharField()
    public_key = serializers.CharField(help_text="The raw 32-byte public key, base64.")
    previous = serializers.ListField(child=serializers.DictField(),
                                     help_text="Keys that signed earlier entries.")


def entry_output(row: LogEntry) -> dict:
    return {"seq": row.seq, "previous": row.previous, "hash": row.hash, "key_id": row.key_id,
            "signature": row.signature}


def log_entry_output(row: LogEntry) -> dict:
    entry = row.as_entry()
    return {**entry_output(row), "kind": row.kind, "game": row.game, "subject": row.subject,
            "commitment": row.commitment, "committed_at": entry.committed_at}


def commitment_output(item: DailyCommitment) -> dict:
    deal = item.deal if item.revealed else None
    shown = deal is not None
    return {
        "game": item.game, "date": item.date.isoformat(), "commitment": item.entry.commitment,
        "committed_at": item.entry.as_entry().committed_at,
        "first_played_at": (None if item.first_played_at is None
                            else item.first_played_at.isoformat()),
        "late": item.late,
        "seed": item.seed if shown else None,
        "attempt": deal.attempt if deal is not None else None,
        "deck": deal.deck if deal is not None else None,
        "entry": entry_output(item.entry),
    }


class SeedsOutput(serializers.Serializer):
    """A match's or race's fairness: its commitment, and its seeds once it is over."""

    commitment = serializers.CharField(help_text="SHA-256 of the server seed's encoding, hex.")
    committed_at = serializers.CharField(help_text="UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: "
                                                   "before any card was dealt.")
    seq = serializers.IntegerField(help_text="Its entry in the fairness log.")
    subject = serializers.CharField(help_text="`match/<id>` or `race/<id>`.")
    server_seed = serializers.CharField(required=False, help_text="Once it is over.")
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_null=True), required=False,
        help_text="Once it is over: each seat's, in seat order; null for the bot's.")
    game = serializers.IntegerField(required=False,
                                    help_text="In a game's record: which game of the match.")
