"""The host key can be changed (issue 27, finding 16): `companion host-key` prints it, `--new`
replaces it, and from then on the old key (an old link, an old cookie, the key an old backup
carries) grants nothing, on a server already running too: the key is read from the file on each
request."""

from __future__ import annotations

import re
from pathlib import Path

from companion import cli, db as database, export, hostkey
from companion.web.plays import HOST_COOKIE

from .test_plays import give_key, gutenberg_play, listed


def stored_key(path: Path) -> str:
    """The host key a database file holds."""
    conn = database.connect(path)
    try:
        return hostkey.host_key(conn)
    finally:
        conn.conn.close()


def host_key_cli(capsys, *args) -> tuple[int, str, str]:
    status = cli.main(["host-key", *args])
    out, err = capsys.readouterr()
    return status, out, err


def printed_key(out: str) -> str:
    return re.search(r"/plays#key=(\S+)", out).group(1)


def test_host_key_prints_the_key_and_new_replaces_it_for_every_device(app, api, capsys, tmp_path):
    gutenberg_play(api, ["Anna", "Ben"], [40, 52])
    folder = Path(app.config["DATABASE"]).parent
    old = stored_key(folder / "companion.db")
    status, out, err = host_key_cli(capsys, "--data", str(folder))
    assert status == 0 and err == "" and printed_key(out) == old
    assert host_key_cli(capsys, "--data", str(folder))[1] == out  # printing changes nothing

    device = app.test_client()
    assert give_key(device, old).status_code == 303
    assert len(listed(device.get("/plays").get_data(as_text=True))) == 1
    export.backup(folder / "companion.db", tmp_path / "old-backup.db")  # an old backup: it holds the old key

    status, out, err = host_key_cli(capsys, "--new", "--data", str(folder))
    assert status == 0 and err == ""
    new = printed_key(out)
    assert new != old and new == stored_key(folder / "companion.db") and len(new) >= 22
    # the device's old cookie, the old link and the key in the old backup grant nothing now
    assert listed(device.get("/plays").get_data(as_text=True)) == []
    assert device.get("/plays/backup").status_code == 404
    assert give_key(device, old).status_code == 403
    assert stored_key(tmp_path / "old-backup.db") == old
    # the new link does
    assert give_key(device, new).status_code == 303
    assert len(listed(device.get("/plays").get_data(as_text=True))) == 1
    device.set_cookie(HOST_COOKIE, old)
    assert listed(device.get("/plays").get_data(as_text=True)) == []


def test_host_key_needs_an_existing_database(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in ((), ("--new",)):
        status, out, err = host_key_cli(capsys, *args, "--data", str(empty))
        assert status == 2 and out == ""
        assert err.startswith("error: data: no database in ") and err.count("\n") == 1
    assert list(empty.iterdir()) == []  # no database made
