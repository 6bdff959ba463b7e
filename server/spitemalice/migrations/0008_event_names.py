"""Events stored before one name meant one type: a ``dealt`` event's list of both pay-off tops
is ``payoff_tops`` (``payoff_top`` is a single card wherever else it appears), and a
``game_over`` of a resigned or timed-out game scores 0 points (it said null)."""

from django.db import migrations

SEATS = ("seat0", "seat1")

FORWARD = [
    *(f"UPDATE spitemalice_event SET {seat} = ({seat} - 'payoff_top') || "
      f"jsonb_build_object('payoff_tops', {seat} -> 'payoff_top') "
      f"WHERE kind = 'dealt' AND {seat} ? 'payoff_top'" for seat in SEATS),
    *(f"UPDATE spitemalice_event SET {seat} = jsonb_set({seat}, '{{points}}', '0') "
      f"WHERE kind = 'game_over' AND {seat} -> 'points' = 'null'::jsonb" for seat in SEATS),
]

BACKWARD = [
    *(f"UPDATE spitemalice_event SET {seat} = ({seat} - 'payoff_tops') || "
      f"jsonb_build_object('payoff_top', {seat} -> 'payoff_tops') "
      f"WHERE kind = 'dealt' AND {seat} ? 'payoff_tops'" for seat in SEATS),
    *(f"UPDATE spitemalice_event SET {seat} = jsonb_set({seat}, '{{points}}', 'null') "
      f"WHERE kind = 'game_over' AND {seat} ->> 'status' IN ('resigned', 'timeout')"
      for seat in SEATS),
]


class Migration(migrations.Migration):

    dependencies = [
        ("spitemalice", "0007_challenges_and_bots"),
    ]

    operations = [
        migrations.RunSQL(sql=FORWARD, reverse_sql=BACKWARD),
    ]
