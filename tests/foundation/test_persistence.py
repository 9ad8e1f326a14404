"""A real `companion serve` killed with SIGKILL keeps every acknowledged event."""

import pytest


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
