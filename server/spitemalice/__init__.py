"""Spite & Malice served through the API: matches against the house bot, the daily, events."""
