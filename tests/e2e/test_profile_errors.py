"""The profile in the browser: every refusal the server can give is said in the player's
language beside the field it concerns, the password rule shows before the first try, and the
heading follows a rename."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.flows import ApiPlayer


def as_guest(page, name: str | None = None) -> ApiPlayer:
    player = ApiPlayer(name=name)
    page.evaluate("token => localStorage.setItem('fsd.token', JSON.stringify(token))", player.token)
    page.reload()
    return player


def test_a_too_short_password_is_refused_in_persian_beside_the_field(open_page, shoot):
    page = open_page("/#/profile", locale="fa-IR")
    as_guest(page)
    claim = page.locator("#claim-form")
    password = claim.locator("input[name=password]")
    rule = "دست‌کم ۸ نویسه، نه فقط رقم، نه یک رمز رایج، و نه شبیه نام کاربری یا نام شما."
    # The rule is there before the first try, and the field is described by it.
    hint_id = password.get_attribute("aria-describedby")
    expect(page.locator(f"#{hint_id}")).to_have_text(rule)
    # One form to keep this account; signing in elsewhere is folded away, not a twin form.
    expect(page.locator("#signin-section")).not_to_have_attribute("open", "")
    expect(page.locator("#signin-form")).to_be_hidden()

    claim.locator("input[name=username]").fill("ada_l")
    password.fill("kort")
    claim.locator("button[type=submit]").click()
    problem = claim.locator(".field-problem")
    expect(problem).to_have_text("رمز عبور دست‌کم ۸ نویسه لازم دارد.")
    expect(claim.locator(".problem-text")).to_have_text(
        "حدس زدن این رمز عبور آسان است. لطفاً رمز دیگری انتخاب کنید.")
    expect(password).to_have_attribute("aria-invalid", "true")
    assert problem.get_attribute("id") in password.get_attribute("aria-describedby").split()
    # Nothing in English, no raw field name, nothing said twice.
    text = claim.inner_text()
    assert "password" not in text.lower() and "characters" not in text
    assert text.count("دست‌کم ۸ نویسه لازم دارد") == 1
    shoot(page, "phone-light-fa-profile-claim-error")

    # A username too short: its own rule, beside it; the password's line is gone.
    claim.locator("input[name=username]").fill("ab")
    password.fill("correct horse battery")
    claim.locator("button[type=submit]").click()
    expect(claim.locator(".field-problem")).to_have_text(
        "نام کاربری ۳ تا ۳۲ حرف، رقم یا نماد دارد، بدون فاصله.")
    expect(password).not_to_have_attribute("aria-invalid", "true")
    # The rule under the field is the one refused: marked as the problem, not repeated.
    assert claim.inner_text().count("نام کاربری ۳ تا ۳۲ حرف") == 1


def test_english_errors_name_the_rule_once_and_the_heading_follows_a_rename(open_page):
    page = open_page("/#/profile")
    as_guest(page, name="Eve Old")
    expect(page.locator("#profile-heading")).to_have_text("Hello, Eve Old")
    claim = page.locator("#claim-form")
    claim.locator("input[name=username]").fill("eve_l")
    claim.locator("input[name=password]").fill("12345678")
    claim.locator("button[type=submit]").click()
    expect(claim.locator(".field-problem")).to_have_text(
        "That password is too common: it is among the first ones people try. "
        "A password cannot be digits only.")
    expect(claim.locator(".problem-detail")).to_have_count(0)
    claim.locator("input[name=password]").fill("eve_l1")
    claim.locator("button[type=submit]").click()
    expect(claim.locator(".field-problem")).to_have_text(
        "That password is too like your username or your name. Please choose another.")

    name = page.locator("#name-form input[name=name]")
    name.fill("E")
    page.locator("#name-form button[type=submit]").click()
    expect(page.locator("#name-form .field-problem")).to_have_text("A name has 2 to 24 characters.")
    name.fill("Eve  New")
    page.locator("#name-form button[type=submit]").click()
    expect(page.locator("#toast")).to_have_text("Name saved.")
    expect(page.locator("#profile-heading")).to_have_text("Hello, Eve New")
    expect(name).to_have_value("Eve New")
