"""The command line: help, the rules interface with its error format, and `serve`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli, network, rules

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_help_lists_every_command():
    out = run("--help").stdout
    for command in ("serve", "rules", "init-db"):
        assert command in out


def test_rules_list_names_every_function():
    out = run("rules", "--list").stdout.splitlines()
    listed = {tuple(line.split("\t")[0].split(" ")) for line in out}
    assert listed == {(g, f) for g, f, _ in rules.listing()}
    assert all("\t" in line and line.split("\t")[1] for line in out)


def test_rules_reads_stdin_and_prints_json():
    result = run("rules", "gutenberg", "type_cost", stdin='{"owned": 3, "buy": 2}')
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"cost": 9}


def test_rules_reads_a_file(tmp_path):
    path = tmp_path / "in.json"
    path.write_text('{"owned": 0, "buy": 1}')
    result = run("rules", "gutenberg", "type_cost", str(path))
    assert json.loads(result.stdout) == {"cost": 1}


def test_rules_errors_exit_2_with_one_line():
    cases = [
        (("rules", "gutenberg", "type_cost"), "{bad", "error: $: "),
        (("rules", "gutenberg", "type_cost"), '{"owned": 3, "buy": 2, "x": 1}', "error: x: "),
        (("rules", "chess", "score"), "{}", "error: $: unknown game"),
        (("rules", "gutenberg", "nope"), "{}", "error: $: unknown function"),
        (("rules", "gutenberg", "type_cost", "/no/such/file.json"), "", "error: $: cannot read"),
    ]
    for args, stdin, start in cases:
        result = run(*args, stdin=stdin)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(start), result.stderr


def test_serve_on_every_interface_prints_the_lan_address_and_a_qr_code_of_it():
    # in-process: no test server listens on every interface (tests/foundation/test_test_servers.py);
    # tests/resilience/test_serve_options.py starts real ones on loopback and on the LAN address
    from companion import qr
    from companion.network import lan_address

    for wildcard in ("0.0.0.0", "::"):
        url, phones = network.where_to_open(wildcard, 8123)
        assert phones and url == f"http://{lan_address() or '127.0.0.1'}:8123/"
    assert all("█" in line for line in qr.terminal(url).splitlines()[1:6])
    assert network.where_to_open("192.168.7.9", 8000) == ("http://192.168.7.9:8000/", True)
    for loopback in ("127.0.0.1", "localhost", "::1"):
        url, phones = network.where_to_open(loopback, 8000)
        assert not phones and url == f"http://{'[::1]' if loopback == '::1' else loopback}:8000/"


def test_parser_has_help_for_every_command():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, action in sub.choices.items():
        assert any(c.help for c in sub._choices_actions if c.dest == name), name


def test_rules_output_is_one_whole_document_even_for_a_lone_surrogate(tmp_path):
    """Issue 13: a name with a lone surrogate (JSON allows "\\ud800") crashed with a
    UnicodeEncodeError traceback after half a document was on stdout."""
    row = {"fame": 1, "guilders": 0, "patronage_cards": 0, "types": 3, "inks": 0,
           "specialties": {"typesetting": 0, "woodcutting": 0, "binding": 0, "illuminating": 0}}
    path = tmp_path / "in.json"
    path.write_text('{"players": [%s, %s]}' % (
        json.dumps(dict(row, name="a\ud800b")), json.dumps(dict(row, name="Anna"))), encoding="ascii")
    result = run("rules", "gutenberg", "score", str(path))
    assert "Traceback" not in result.stderr
    if result.returncode == 0:  # the name kept: then the whole document, with the name as given
        assert result.stderr == ""
        out = json.loads(result.stdout)
        assert [p["name"] for p in out["players"]] == ["a\ud800b", "Anna"]
    else:  # or refused, with the one error line and nothing on stdout
        assert result.returncode == 2 and result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: players[0].name: ")


def test_rules_accepts_a_file_and_stdin_that_start_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "in.json"
    path.write_bytes(b'\xef\xbb\xbf{"owned": 3, "buy": 2}')
    by_file = run("rules", "gutenberg", "type_cost", str(path))
    assert by_file.returncode == 0, by_file.stderr
    assert json.loads(by_file.stdout) == {"cost": 9}
    by_stdin = run("rules", "gutenberg", "type_cost", stdin='\ufeff{"owned": 3, "buy": 2}')
    assert by_stdin.returncode == 0, by_stdin.stderr
    assert json.loads(by_stdin.stdout) == {"cost": 9}


def test_rules_refuses_input_that_is_not_utf8_in_one_line():
    result = subprocess.run([sys.executable, "-m", "companion", "rules", "gutenberg", "type_cost"],
                            input=b'\xff{"owned": 3, "buy": 2}', capture_output=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode() == "error: $: the input must be UTF-8 text\n"


def archive_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("Plays archive, every play")]


@pytest.mark.slow
def test_host_key_prints_the_whole_link_serve_printed(tmp_path):
    """Issue 38, item 17: `companion host-key` prints the link the host opens, as serve does, not a path to
    put after an address; with --new, the same address and the new key."""
    from tests.conftest import Server

    data = tmp_path / "data"
    server = Server(data=data).start()
    try:
        (served,) = archive_lines(server.log.read_text())
        assert served.split(": ", 1)[1] == server.key_link()  # the whole link, as test servers open it
        printed = run("host-key", "--data", str(data))
        assert printed.returncode == 0 and printed.stderr == "", printed.stderr
        assert archive_lines(printed.stdout) == [served]
        # a new key: the running server's address, with the new key, which the server takes at once
        renewed = run("host-key", "--new", "--data", str(data))
        assert renewed.returncode == 0, renewed.stderr
        (line,) = archive_lines(renewed.stdout)
        link = line.split(": ", 1)[1]
        assert link.startswith(server.url + "/plays#key=") and link != served.split(": ", 1)[1]
        status, headers, _ = server.send("POST", "/plays/key", f"key={link.split('#key=', 1)[1]}",
                                         {"Content-Type": "application/x-www-form-urlencoded", "Origin": server.url})
        assert status == 303 and "host_key=" in headers["Set-Cookie"], (status, headers)
    finally:
        server.stop()


def test_host_key_on_a_folder_no_server_has_served_says_where_the_path_goes(tmp_path):
    """Before any `companion serve` there is no address to print: the path, and what to put before it."""
    assert run("init-db", "--data", str(tmp_path)).returncode == 0
    printed = run("host-key", "--data", str(tmp_path))
    assert printed.returncode == 0 and printed.stderr == "", printed.stderr
    (line,) = archive_lines(printed.stdout)
    key = printed.stdout.split("Host key: ", 1)[1].split("\n", 1)[0]
    assert f"open /plays#key={key} at the address companion serve prints" in line and "http" not in line, line
