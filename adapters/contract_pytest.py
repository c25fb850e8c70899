"""The chat-port contract as pytest tests: subclass `ChatPortContract` in a platform's tests.

    from bohnanza.adapters.contract_pytest import ChatPortContract

    class TestMyPlatform(ChatPortContract):
        @pytest.fixture
        def harness(self) -> Iterator[ChatHarness]:
            ...  # a port connected to a real (or realistic) server, and a way to read it

Each check of `bohnanza.adapters.contract.CHECKS` is a test named `test_<check>`; a check that
does not apply to the platform is skipped, with why. This module alone imports pytest.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bohnanza.adapters.contract import CHECKS, ChatHarness, NotApplicable

__all__ = ["ChatPortContract"]


def _test(check: Callable[[ChatHarness], None]) -> Callable[[object, ChatHarness], None]:
    def test(self: object, harness: ChatHarness) -> None:
        try:
            check(harness)
        except NotApplicable as why:
            pytest.skip(str(why))

    test.__name__ = f"test_{check.__name__}"
    test.__doc__ = check.__doc__
    return test


class ChatPortContract:
    """The checks as tests; a subclass provides the `harness` fixture."""


for _name, _check in CHECKS.items():
    setattr(ChatPortContract, f"test_{_name}", _test(_check))
