from django import forms
from django.contrib import admin

from server.players import names, usernames
from server.players.models import AccessToken, Player


class PlayerForm(forms.ModelForm):
    """Staff rename players and change usernames under the API's rules, keys included."""

    class Meta:
        model = Player
        # The bot mark is the player's to set, through the API, where each game checks it and
        # updates its records (server/players/bots.py): staff see it, read-only.
        # Named one by one, so a field added to Player is not editable here until listed.
        fields = ["last_login", "is_superuser", "name", "username", "is_staff", "is_active",
                  "claimed_at", "challenges"]

    def clean_name(self) -> str:
        try:
            name = names.clean_name(self.cleaned_data["name"])
        except names.InvalidName as error:
            raise forms.ValidationError(str(error)) from None
        key = names.name_key(name)
        if Player.objects.filter(name_key=key).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("Another player's name is or looks like this one.")
        self.instance.name_key = key
        return name

    def clean_username(self) -> str | None:
        username = self.cleaned_data.get("username") or None
        if username is None:
            self.instance.username_key = None
            return None
        try:
            username = usernames.clean_username(username)
        except usernames.InvalidUsername as error:
            raise forms.ValidationError(str(error)) from None
        key = usernames.username_key(username)
        if Player.objects.filter(username_key=key).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("That username is taken.")
        self.instance.username_key = key
        return username


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "username", "bot", "is_staff", "created_at", "claimed_at"]
    search_fields = ["name", "username", "id"]
    list_filter = ["is_staff", "is_active"]
    readonly_fields = ["id", "name_key", "username_key", "created_at", "claimed_at",
                       "last_login", "bot"]
    exclude = ["password", "groups", "user_permissions"]


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    # public_id is the id the API shows (GET /api/v1/players/me/tokens): search by it.
    list_display = ["public_id", "player", "label", "created_at", "last_used_at"]
    search_fields = ["public_id"]
    readonly_fields = ["public_id", "key_hash"]
    raw_id_fields = ["player"]
