"""Shared test settings: property tests run a modest, fixed number of examples."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")
