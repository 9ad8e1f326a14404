"""A real `companion serve` killed with SIGKILL keeps every acknowledged event."""

from urllib.parse import urlsplit

import pytest

from tests.conftest import Address


def call(url: str, method: str = "GET", body=None, token: str | None = None) -> tuple[int, object]:
    """One JSON API call to a whole URL, `body` sent as JSON: (status, the answer's document); any status but
    2xx fails. Kept for tests/foundation/test_export.py, whose calls can move to its server's `call`."""
    where = urlsplit(url)
    path = where.path + (f"?{where.query}" if where.query else "")
    status, doc = Address(where.port, where.hostname).call(method, path, body, token)
    assert 200 <= status < 300, (status, url, doc)
    return status, doc


@pytest.mark.slow
def test_acknowledged_events_survive_sigkill_and_restart(server):
    status, t = server.call("POST", "/api/v1/tables", {"game": "gutenberg", "players": ["Anna", "Tom"]})
    assert status == 201
    acknowledged = []
    for i in range(25):
        status, answer = server.call("POST", f"/api/v1/tables/{t['table']}/events",
                                     {"type": "rename", "data": {"player": i % 2, "name": f"N{i}"}, "expected_version": i}, t["token"])
        assert status == 200
        acknowledged.append(answer["version"])
    server.kill()
    server.start()
    log = server.api(f"/api/v1/tables/{t['table']}/events", token=t["token"])
    assert [e["seq"] for e in log] == acknowledged == list(range(1, 26))
    doc = server.api(f"/api/v1/tables/{t['table']}", token=t["token"])
    assert doc["version"] == 25 and doc["players"] == [{"name": "N24"}, {"name": "N23"}]
