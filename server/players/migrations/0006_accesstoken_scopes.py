"""Token scopes: every token issued so far keeps what it could do (both scopes)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("players", "0005_name_keys_fold_marks")]

    operations = [
        migrations.AddField(
            model_name="accesstoken", name="scopes",
            field=models.CharField(default="account play", max_length=64,
                                   help_text="What the token may do: scope names, "
                                             "space-separated (SCOPES)."),
        ),
    ]
