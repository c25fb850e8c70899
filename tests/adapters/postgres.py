"""The PostgreSQL server for the tests, found through BOHNANZA_TEST_POSTGRES_URL.

Tests run in parallel worker processes (pytest-xdist), and each worker gets a schema of its own
in the one test database: a test empties its worker's schema, never another worker's tables.
"""

from __future__ import annotations

import os

import pytest
from sqlalchemy import create_engine, make_url, text

from bohnanza.adapters.store import database_url

ENV = "BOHNANZA_TEST_POSTGRES_URL"
SKIP_REASON = f"no PostgreSQL server: set {ENV} to a database URL (.ci/run starts one)"


def server_url() -> str:
    """The URL of the test database as given, or skip the test and say why."""
    url = os.environ.get(ENV)
    if not url:
        pytest.skip(SKIP_REASON)
    return url


def worker_schema() -> str:
    """This test process's own schema: `tests_gw0` under pytest-xdist, else `tests_main`."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return "tests_" + "".join(c for c in worker if c.isalnum())


def postgres_url() -> str:
    """The URL of an empty schema of the test database, this worker's own, or skip the test
    and say why. Everything a store makes lands in that schema (its search path)."""
    url = database_url(server_url())
    schema = worker_schema()
    engine = create_engine(url)
    with engine.begin() as connection:
        # Every table of the store, whatever migrations made them: the schema anew.
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    scoped = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return scoped.render_as_string(hide_password=False)
