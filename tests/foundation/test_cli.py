"""The command line: help, the rules interface with its error format, and `serve`."""

import json
import subprocess
import sys
from pathlib import Path

from companion import cli, rules

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


def test_serve_prints_the_lan_address_and_a_qr_code(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0", "--data", str(tmp_path)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        data_line = proc.stdout.readline()
        qr_lines = [proc.stdout.readline() for _ in range(5)]
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    assert first.startswith("Table Companion is running. Open http://") and "127.0.0.1" not in first, first
    assert data_line.startswith("Data: ")
    assert all("█" in line for line in qr_lines)


def test_parser_has_help_for_every_command():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, action in sub.choices.items():
        assert any(c.help for c in sub._choices_actions if c.dest == name), name
