"""Issue 31, deliverable 2: a deployment that is tested, and the health endpoint it watches.

- `GET /healthz` (companion/web/health.py): 200 while the data folder's database answers with
  every migration of this code applied; 503 when the file is gone, is no database, or holds an
  older schema (an old backup restored under a running server), each through the real app.
- deploy/table-companion.service, the systemd unit: `systemd-analyze verify` and an offline
  `systemd-analyze security` review of it, then the unit RUN as it says (systemd is not PID 1 on
  the test machine, so the test plays its part: the unit's user, made if missing, its group,
  folder, environment and command, with a folder of /tmp standing in for its StateDirectory),
  behind a real Caddy, and stopped with SIGTERM as systemd stops it. The unit's user is removed
  again after the tests, however they went, when the test made it; the app is installed by the
  README's step 4 as written, and checked as that user.
- deploy/Caddyfile: `caddy adapt` reads it, formatted; in that test it runs on loopback with
  `tls internal` in place of its real host name: Caddy stops sending phones to the server while its
  /healthz says 503, and its log of the failures keeps no table secret. (The HTTPS browser tests
  are tests/resilience/test_https_browser.py.)
- deploy/nginx.conf, the site for nginx in Caddy's place (issue 40): run on loopback by Debian's
  nginx with a self-signed certificate and the access log its comments offer: joins, API calls, a
  stream and a join while the app is down (502) leave no secret in nginx's access or error log.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import resource
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from bench.nginx import nginx_conf
from companion import create_app
from companion import db as database
from companion.paths import DB_NAME
from tests.conftest import ROOT, Address, Server, listening_addresses
from tests.foundation.test_wheel import run_shown, wheel  # noqa: F401 (a fixture: the wheel built once from this checkout's files)
from tests.resilience.test_proxy import CADDY, NGINX, caddy_env, loopback_port, processes, start_caddy, wait_for  # noqa: F401 (processes: a fixture)

DEPLOY = ROOT / "deploy"


# --- GET /healthz -----------------------------------------------------------------------------------


def health(client, host: str = "localhost") -> tuple[int, dict, dict]:
    """GET /healthz; return (status, its JSON body, its headers)."""
    answer = client.get("/healthz", headers={"Host": host})
    return answer.status_code, answer.get_json(silent=True) or {}, answer.headers


def test_healthz_is_200_while_the_database_answers_never_cached_and_sets_no_cookie(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ALLOWED_HOSTS": ["box.example.org"],
                      "PUBLIC_URL": "https://games.example.org"})
    client = app.test_client()
    # every Host the app accepts: loopback with a port (Caddy's health check), the public name, a name
    # the operator allowed
    for host in ("localhost", "127.0.0.1:8000", "games.example.org", "box.example.org"):
        status, body, headers = health(client, host)
        assert status == 200 and body["status"] == "ok", (host, status, body)
        assert headers["Cache-Control"] == "no-store"
        assert "Set-Cookie" not in headers
    # a name the app refuses gets its 400 here too: the check is no way round the Host check
    assert health(client, "attacker.example")[0] == 400
    assert client.head("/healthz").status_code == 200
    # nothing of the data folder in the body: no path, no key
    assert str(tmp_path) not in json.dumps(body)


def test_healthz_is_503_when_the_database_file_is_removed(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})
    client = app.test_client()
    assert health(client)[0] == 200
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)
    status, body, headers = health(client)
    assert status == 503 and body["status"] == "unavailable" and body["error"], body
    assert headers["Cache-Control"] == "no-store" and "Set-Cookie" not in headers
    assert str(tmp_path) not in json.dumps(body)
    # the check opened nothing new: no empty database made in its place
    assert not (tmp_path / "data" / DB_NAME).exists()


def test_healthz_is_503_when_the_database_file_is_no_database(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})
    client = app.test_client()
    path = tmp_path / "data" / DB_NAME
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (tmp_path / "data" / name).unlink(missing_ok=True)
    path.write_bytes(b"these are not the tables you are looking for\n" * 200)
    status, body, _ = health(client)
    assert status == 503 and body["status"] == "unavailable", body


def older_database(path, applied: int) -> None:
    """Write at `path` the database an earlier version of the app left: its first `applied` migrations
    only, recorded as companion/db.py records them."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
        for name, sql in database.MIGRATIONS[:applied]:
            conn.executescript(sql)
            conn.execute("INSERT INTO _migrations VALUES (?, datetime('now'))", [name])
    finally:
        conn.close()


def test_healthz_is_503_while_the_file_holds_an_older_schema_and_200_once_migrated(tmp_path):
    """An old backup put in place under a running server: its schema is behind this code's, until
    `companion init-db` (or a restart, which migrates) brings it up to date."""
    assert len(database.MIGRATIONS) >= 2
    data = tmp_path / "data"
    app = create_app({"TESTING": True, "DATA_DIR": str(data)})
    client = app.test_client()
    assert health(client)[0] == 200
    old = tmp_path / "old.db"
    older_database(old, len(database.MIGRATIONS) - 1)
    for name in (f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
        (data / name).unlink(missing_ok=True)
    os.replace(old, data / DB_NAME)
    status, body, _ = health(client)
    assert status == 503 and body["status"] == "unavailable", body
    assert database.MIGRATIONS[-1][0] in body["error"], body  # it names what is missing
    done = subprocess.run([sys.executable, "-m", "companion", "init-db", "--data", str(data)], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert health(client)[0] == 200


# --- the systemd unit -------------------------------------------------------------------------------

UNIT = DEPLOY / "table-companion.service"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
NO_SYSTEMD_ANALYZE = "systemd-analyze is missing (scripts/test.sh installs Debian's systemd package, which has it)"
#: where the README's "Host it for your club" installs the app: a virtual environment of its own, made by root, read-only to the service
INSTALLED = "/opt/table-companion/bin/companion"
#: the unit's StateDirectory= is this folder under /var/lib (systemd.exec(5), for a system service)
STATE_ROOT = "/var/lib"


def unit_settings(path) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections and, for each key, every value it is given in order (systemd.syntax(7)):
    comments start with # or ;, a line ending in a backslash goes on, a key may be repeated."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    pending = ""
    for raw in path.read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def one(section: dict, key: str) -> str:
    """The value of a key given once (the test refuses to guess which of several systemd would take)."""
    values = section.get(key, [])
    assert len(values) == 1, f"{key}= is given {len(values)} times in {UNIT.name}"
    assert "%" not in values[0], f"{key}= holds a specifier, which this test does not expand: {values[0]}"
    return values[0]


def unit_under_test(folder, companion) -> Path:
    """A copy of the unit whose ExecStart names `companion` instead of /opt's (which this machine has not):
    `systemd-analyze` checks that the program is there and executable."""
    text = UNIT.read_text()
    assert text.count(INSTALLED) == 1, f"{UNIT.name} names {INSTALLED} once, in ExecStart="
    copy = folder / UNIT.name
    copy.write_text(text.replace(INSTALLED, str(companion)))
    return copy


def analyze(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([SYSTEMD_ANALYZE, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason=NO_SYSTEMD_ANALYZE)
def test_the_unit_passes_systemd_analyze_verify_without_a_word(tmp_path):
    checked = unit_under_test(tmp_path, Path(sys.executable).parent / "companion")
    done = analyze("verify", str(checked))
    # verify exits 0 even for an unknown key or a value it cannot parse: it only says so
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
    # and it does say so: the same file with a misspelt key and a bad value is not silent
    broken = tmp_path / "broken" / UNIT.name
    broken.parent.mkdir()
    broken.write_text(checked.read_text().replace("ProtectSystem=strict", "ProtectSystem=strictest\nProtectSytem=strict"))
    said = analyze("verify", str(broken))
    assert "ProtectSytem" in said.stderr and "strictest" in said.stderr, said.stderr


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason=NO_SYSTEMD_ANALYZE)
def test_the_units_sandbox_rates_ok_in_systemd_analyze_security(tmp_path):
    """systemd's own review of the hardening, offline (no running systemd needed): an overall exposure
    of at most 2.0 out of 10 (systemd-analyze's "OK"; a bare unit is 9.6, UNSAFE)."""
    checked = unit_under_test(tmp_path, Path(sys.executable).parent / "companion")
    done = analyze("security", "--offline=yes", "--threshold=20", "--no-pager", str(checked))
    assert done.returncode == 0, done.stdout + done.stderr
    bare = tmp_path / "bare.service"
    bare.write_text(f"[Service]\nExecStart={Path(sys.executable).parent / 'companion'} serve\n")
    assert analyze("security", "--offline=yes", "--threshold=20", "--no-pager", str(bare)).returncode != 0


# --- the Caddyfile ----------------------------------------------------------------------------------

CADDYFILE = DEPLOY / "Caddyfile"
#: the placeholder both files carry for the name phones open (the README has the operator replace it)
SITE = "YOUR.HOST.NAME"
#: where the unit's server listens and the Caddyfile sends the phones
UPSTREAM = "127.0.0.1:8000"
#: the public name in the tests: the test's curl resolves it to loopback
TEST_NAME = "companion.test"
CURL = shutil.which("curl")


def caddy_run(*args: str, cwd) -> subprocess.CompletedProcess:
    """Run Debian's caddy with its home, data and config folders in `cwd` (never the machine's)."""
    return subprocess.run([CADDY, *args], capture_output=True, text=True, timeout=60, cwd=cwd, env=caddy_env(cwd))


def test_the_caddyfile_adapts_formatted_with_the_stream_unbuffered_the_health_check_and_no_request_in_the_log(tmp_path):
    done = caddy_run("adapt", "--config", str(CADDYFILE), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # `caddy adapt` warns of anything it would have written otherwise (caddy fmt), and of nothing else here
    assert '"level":"warn"' not in done.stderr, done.stderr
    config = json.loads(done.stdout)
    (server,) = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"] and "logs" not in server  # automatic HTTPS; no access log
    (route,) = server["routes"]
    assert route["match"] == [{"host": [SITE.lower()]}]
    (proxy,) = [handler for sub in route["handle"] for inner in sub["routes"] for handler in inner["handle"]]
    assert proxy["handler"] == "reverse_proxy" and proxy["upstreams"] == [{"dial": UPSTREAM}]
    assert proxy["flush_interval"] == -1
    assert proxy["health_checks"]["active"]["uri"] == "/healthz" and proxy["health_checks"]["active"]["expect_status"] == 200
    fields = config["logging"]["logs"]["default"]["encoder"]["fields"]
    assert fields == {"request>uri": {"filter": "delete"}, "request>headers": {"filter": "delete"}}


def on_loopback(port: int, upstream: int) -> str:
    """deploy/Caddyfile as the tests run it: its site at https://companion.test:PORT on 127.0.0.1 with
    Caddy's own CA (`tls internal`) instead of a public one, the server at 127.0.0.1:`upstream`, and
    nothing of the machine's touched: no admin endpoint, no CA put in its trust store, no port 80."""
    text = CADDYFILE.read_text()
    assert text.count(f"\n{SITE} {{\n") == 1 and text.count(UPSTREAM) == 1 and text.count("\n{\n") == 1, text
    text = text.replace("\n{\n", "\n{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n", 1)
    text = text.replace(f"\n{SITE} {{\n", f"\nhttps://{TEST_NAME}:{port} {{\n\tbind 127.0.0.1\n\ttls internal\n", 1)
    return text.replace(UPSTREAM, f"127.0.0.1:{upstream}")


def curl(port: int, ca: Path, path: str, *args: str) -> tuple[int, str]:
    """The operator's own check (the README's "Host it for your club"): curl over HTTPS to https://companion.test:PORT,
    trusting Caddy's CA alone, the name resolved to loopback; return (status, body), status 0 when
    nothing answered. (conftest's Address speaks plain HTTP: this is the HTTPS side of Caddy.)"""
    done = subprocess.run([CURL, "--silent", "--show-error", "--max-time", "10", "--cacert", str(ca),
                           "--resolve", f"{TEST_NAME}:{port}:127.0.0.1", "--write-out", "\n%{http_code}", *args,
                           f"https://{TEST_NAME}:{port}{path}"], capture_output=True, text=True, timeout=30)
    body, _, status = done.stdout.rpartition("\n")
    return (int(status), body) if done.returncode == 0 else (0, done.stderr)


def caddy_in_front(processes, folder: Path, upstream: int) -> tuple[int, Path, Path]:
    """Debian's Caddy running deploy/Caddyfile on loopback (on_loopback) in front of `upstream`, once it
    answers; return its port, its log and its CA's root certificate."""
    folder.mkdir(parents=True, exist_ok=True)
    ca = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    for attempt in range(5):
        port = loopback_port()
        (folder / "Caddyfile").write_text(on_loopback(port, upstream))
        log = folder / f"caddy-{attempt}.log"
        process = start_caddy(processes, folder, log)

        def answered():
            if process.poll() is not None:
                return "exited"
            return ca.exists() and curl(port, ca, "/healthz")[0] != 0

        if wait_for(answered, "caddy answered", log.read_text) is True:
            return port, log, ca
        if "address already in use" not in log.read_text():
            raise AssertionError(log.read_text())
    raise AssertionError("caddy found no free port in 5 tries")


# --- the unit, run as it says ---------------------------------------------------------------------------

#: Debian's own Python, which the README's "Host it for your club" makes the app's virtual environment with
DEBIAN_PYTHON = "/usr/bin/python3"
#: the environment systemd gives every service before the unit's own Environment= (systemd.exec(5))
SERVICE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"


#: where Debian keeps useradd, userdel and runuser: a PATH without the sbin folders (a plain user's, some CI's) misses them
SYSTEM_BIN = ("/usr/sbin", "/sbin")
#: the app's folder in the README's step 4, and the app's source it installs
OPT, SOURCE = str(Path(INSTALLED).parent.parent), "/usr/local/src/table-companion"
NOT_ROOT = "needs root: makes the unit's system user, and runs as it (as systemd does; the CI machine runs the tests as root)"


def system_tool(name: str) -> str:
    """Return the path of a system program (useradd, userdel, runuser): on the PATH, else in /usr/sbin or /sbin."""
    found = shutil.which(name, path=os.pathsep.join([os.environ.get("PATH", os.defpath), *SYSTEM_BIN]))
    assert found, f"{name} is neither on the PATH nor in {' or '.join(SYSTEM_BIN)} (Debian's passwd package has it)"
    return found


@contextmanager
def system_user(user: str, group: str, home: str) -> Iterator[pwd.struct_passwd]:
    """The unit's user, made as the README's "Host it for your club" makes it when this machine has none yet,
    and removed again afterwards with its group, however the test went. A user the machine had
    before is left as it was (a real deployment's)."""
    try:
        account, made = pwd.getpwnam(user), False
    except KeyError:
        run_shown([system_tool("useradd"), "--system", "--user-group", "--home-dir", home, "--no-create-home",
                   "--shell", "/usr/sbin/nologin", user], timeout=60)
        account, made = pwd.getpwnam(user), True
    try:
        assert grp.getgrgid(account.pw_gid).gr_name == group and account.pw_uid != 0
        yield account
    finally:
        if made:
            # no --remove: the home was never made, and whatever is at that path is not the test's
            run_shown([system_tool("userdel"), user], timeout=60)
            if group in {g.gr_name for g in grp.getgrall()}:
                run_shown([system_tool("groupdel"), group], timeout=60)


@pytest.fixture(scope="module")
def service_account() -> Iterator[pwd.struct_passwd]:
    """The unit's own user, for the tests of this module that run as it (root only)."""
    if os.geteuid() != 0:
        pytest.skip(NOT_ROOT)
    service = unit_settings(UNIT)["Service"]
    with system_user(one(service, "User"), one(service, "Group"), f"{STATE_ROOT}/{one(service, 'StateDirectory')}") as account:
        yield account


def readme_install_steps() -> list[str]:
    """The commands of the README's "Host it for your club", step 4 (the app in /opt/table-companion)."""
    section = (ROOT / "README.md").read_text().split("## Host it for your club", 1)[1].split("\n## ", 1)[0]
    step = section.split("**4. The app**", 1)[1].split("**5.", 1)[0]
    return step.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()


def test_the_readme_makes_the_apps_venv_with_debians_python_and_checks_it_as_the_service_user():
    """Whatever `python3` root finds first (on some hosts a pyenv under /root, which the service user cannot
    enter) is not the one: the venv is made with Debian's, named, and step 4 ends by running the app as its user."""
    steps = readme_install_steps()
    assert steps[0] == f"{DEBIAN_PYTHON} -m venv {OPT}", steps
    user = one(unit_settings(UNIT)["Service"], "User")
    assert steps[-1] == f"runuser -u {user} -- {INSTALLED} --help", steps


@pytest.fixture(scope="module")
def installed(wheel, service_account):  # noqa: F811 (the fixture imported above)
    """The app installed by the README's "Host it for your club", step 4, as written, by root with root's
    PATH (here pyenv's python3 comes first, under /root, which the service user cannot enter), in a
    folder of /tmp standing in for /opt/table-companion, the wheel built from this checkout standing in
    for its source; its last command runs the app as the service user. Return its `companion`."""
    if not os.path.exists(DEBIAN_PYTHON):
        pytest.skip(f"{DEBIAN_PYTHON} is missing: the README's 'Host it for your club' installs the app with Debian's python3")
    folder = Path(tempfile.mkdtemp(prefix="table-companion-opt-"))
    try:
        folder.chmod(0o755)  # as /opt/table-companion: root's, readable by the service
        for line in readme_install_steps():
            argv = shlex.split(line.replace(OPT, str(folder)).replace(SOURCE, str(wheel)))
            argv[0] = argv[0] if os.path.isabs(argv[0]) else system_tool(argv[0])
            done = run_shown(argv, timeout=600)
        assert done.stdout.startswith("usage: companion"), done.stdout
        yield folder / "bin" / "companion"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def swapped(argv: list[str], option: str, value: str) -> tuple[list[str], str]:
    """argv with the value after `option` replaced; and the value it had."""
    at = argv.index(option) + 1
    return [*argv[:at], value, *argv[at + 1:]], argv[at]


def proc_status(pid: int) -> dict[str, list[str]]:
    """Linux's /proc/PID/status: each line's fields by name."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {name: value.split() for name, _, value in (line.partition(":") for line in lines)}


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason=NOT_ROOT)
@pytest.mark.skipif(CURL is None, reason="curl is missing (the README's check of /healthz): apt-get install curl")
def test_the_unit_runs_as_it_says_as_its_own_user_behind_the_caddyfile(processes, tmp_path, installed, service_account):
    """systemd is not PID 1 on the test machine, so the test does what `systemctl start` would: the
    unit's User=, Group=, WorkingDirectory=, Environment=, UMask=, LimitNOFILE=, NoNewPrivileges=,
    CapabilityBoundingSet= and ExecStart=, with a folder of /tmp standing in for its StateDirectory
    (the volume: /var/lib/NAME, made by systemd, owned by the user). Its namespaces (ProtectSystem=,
    PrivateTmp=, ...) are systemd's alone: `systemd-analyze security` reviews them above. Two
    changes, for a shared machine: the server takes its own port (--port 0), which Caddy is then
    given, and the public name is companion.test, which curl resolves to loopback."""
    service = unit_settings(UNIT)["Service"]
    user, group = one(service, "User"), one(service, "Group")
    state = f"{STATE_ROOT}/{one(service, 'StateDirectory')}"
    account = service_account
    # not tmp_path: its parents are root's alone (0700), as /var/lib's are not
    volume = Path(tempfile.mkdtemp(prefix="table-companion-state-"))
    try:
        os.chown(volume, account.pw_uid, account.pw_gid)
        volume.chmod(int(one(service, "StateDirectoryMode"), 8))

        def here(value: str) -> str:
            return value.replace(state, str(volume))

        argv = shlex.split(one(service, "ExecStart"))
        assert argv[0] == INSTALLED and argv[1] == "serve", argv
        argv, listen = swapped([str(installed), *argv[1:]], "--port", "0")
        assert f"127.0.0.1:{listen}" == UPSTREAM and argv[argv.index("--host") + 1] == "127.0.0.1"
        argv, public = swapped(argv, "--public-url", f"https://{TEST_NAME}")
        assert public == f"https://{SITE}"
        env = {"PATH": SERVICE_PATH, "HOME": here(account.pw_dir), "USER": user, "LOGNAME": user, "SHELL": account.pw_shell}
        for line in service.get("Environment", []):
            for assignment in shlex.split(line):
                name, _, value = assignment.partition("=")
                env[name] = here(value)
        # systemd sets it as root; a container may cap root's hard limit below it (here 20000)
        files = min(int(one(service, "LimitNOFILE")), resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        sandbox = ["--no-new-privs"] if one(service, "NoNewPrivileges") == "yes" else []
        sandbox += ["--bounding-set=-all"] if one(service, "CapabilityBoundingSet") == "" else []
        server = processes.start(["setpriv", f"--reuid={user}", f"--regid={group}", "--init-groups", *sandbox, "--", *argv],
                                 tmp_path / "serve.log", env=env, cwd=here(one(service, "WorkingDirectory")),
                                 umask=int(one(service, "UMask"), 8),
                                 preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files)))

        def listening():
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            return listening_addresses(server.pid)

        (address,) = wait_for(listening, "the unit's server listened", (tmp_path / "serve.log").read_text)
        assert address[0] == "127.0.0.1", address  # loopback alone: only Caddy, on this machine, reaches it
        port = address[1]

        # it runs as the unit's user, not root, and can gain nothing back
        status = proc_status(server.pid)
        assert status["Uid"] == [str(account.pw_uid)] * 4 and status["Gid"] == [str(account.pw_gid)] * 4, status
        assert status["NoNewPrivs"] == ["1"] and int(status["CapEff"][0], 16) == 0 and int(status["CapBnd"][0], 16) == 0
        assert os.readlink(f"/proc/{server.pid}/cwd") == str(volume)
        # its data file is in the data folder, the user's, and the user's alone (UMask=0077)
        database_file = volume / DB_NAME
        for made in volume.iterdir():
            found = made.stat()
            assert (found.st_uid, found.st_gid) == (account.pw_uid, account.pw_gid), made
            assert found.st_mode & 0o077 == 0, (made, oct(found.st_mode))
        assert database_file.is_file()

        # through Caddy, over HTTPS: /healthz, and a table made through it lands in the volume
        caddy_port, caddy_log, ca = caddy_in_front(processes, tmp_path / "caddy", port)
        answer = curl(caddy_port, ca, "/healthz")
        assert answer[0] == 200 and json.loads(answer[1]) == {"status": "ok"}, answer
        status_code, body = curl(caddy_port, ca, "/api/v1/tables", "--header", "Content-Type: application/json",
                                 "--data", json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}))
        assert status_code == 201, body
        table = json.loads(body)
        assert table["join_url"].startswith(f"https://{TEST_NAME}/")  # the unit's --public-url

        # a data file the server cannot read: its /healthz says 503, and Caddy's check stops sending it phones
        database_file.chmod(0)
        assert Address(port).send("GET", "/healthz")[0] == 503
        wait_for(lambda: curl(caddy_port, ca, "/")[0] == 503, "Caddy answered 503 itself", caddy_log.read_text)
        # a phone's join address and an API call meanwhile: Caddy's log of the failure keeps neither secret
        secret_paths = (f"/join/{table['table']}/{table['token']}", f"/api/v1/tables/{table['table']}")
        for path in secret_paths:
            assert curl(caddy_port, ca, path, "--header", f"X-Table-Token: {table['token']}")[0] == 503
        database_file.chmod(0o600)
        wait_for(lambda: curl(caddy_port, ca, "/healthz")[0] == 200, "Caddy sent phones to the server again", caddy_log.read_text)
        caddy_said = caddy_log.read_text()
        assert "no upstreams available" in caddy_said  # the failures were logged...
        assert table["token"] not in caddy_said  # ...without the secret

        # SIGTERM, as systemd stops a service (to its whole control group): a clean end, status 0
        os.killpg(server.pid, signal.SIGTERM)
        code = server.wait(int(one(service, "TimeoutStopSec")))
        said = (tmp_path / "serve.log").read_text()
        assert code == 0 and "Traceback" not in said, (code, said)
        with pytest.raises(ProcessLookupError):
            os.killpg(server.pid, 0)  # nothing of it left running
        conn = sqlite3.connect(database_file)
        try:
            assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
            assert conn.execute("SELECT id FROM tables").fetchall() == [(table["table"],)]
        finally:
            conn.close()
    finally:
        shutil.rmtree(volume, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason=NOT_ROOT)
def test_the_test_user_is_made_without_sbin_on_the_path_and_removed_even_when_the_test_fails(monkeypatch):
    name = f"tc-test-{os.getpid()}"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no /usr/sbin, where Debian keeps useradd and userdel
    with pytest.raises(RuntimeError, match="the test failed here"):
        with system_user(name, name, f"/nonexistent/{name}") as account:
            assert pwd.getpwnam(name).pw_uid == account.pw_uid != 0
            raise RuntimeError("the test failed here")
    with pytest.raises(KeyError):
        pwd.getpwnam(name)
    with pytest.raises(KeyError):
        grp.getgrnam(name)


# --- the nginx recipe -------------------------------------------------------------------------------

NGINX_SITE = DEPLOY / "nginx.conf"
#: the access log the recipe's comment offers, in place of each `access_log off;`
NGINX_ACCESS_LOG = "access_log /var/log/nginx/table-companion.log companion;"
OPENSSL = shutil.which("openssl")


def nginx_on_loopback(folder: Path, port: int, http_port: int, upstream: int) -> str:
    """deploy/nginx.conf as the tests run it: its servers on 127.0.0.1:`port` (HTTPS) and `http_port`
    (HTTP) under the name companion.test, the test's own certificate in place of certbot's, its logs
    and webroot in `folder`, the app at 127.0.0.1:`upstream`, and the access log it offers switched on."""
    text = NGINX_SITE.read_text()
    assert text.count(f"#     {NGINX_ACCESS_LOG}\n") == 1 and text.count("\taccess_log off;\n") == 2, text
    text = text.replace("\taccess_log off;\n", f"\t{NGINX_ACCESS_LOG}\n")
    for old, new in [("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;"), ("\tlisten [::]:443 ssl http2;\n", ""),
                     ("listen 80;", f"listen 127.0.0.1:{http_port};"), ("\tlisten [::]:80;\n", ""),
                     (f"/etc/letsencrypt/live/{SITE}/fullchain.pem", str(folder / "cert.pem")),
                     (f"/etc/letsencrypt/live/{SITE}/privkey.pem", str(folder / "key.pem")),
                     ("/var/log/nginx/", f"{folder}/"), ("/var/www/html", str(folder / "www")),
                     (UPSTREAM, f"127.0.0.1:{upstream}"), (SITE, TEST_NAME)]:
        assert old in text, old
        text = text.replace(old, new)
    settings = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    assert "/etc/" not in settings and "/var/" not in settings and ":8000" not in settings, settings
    return text


def nginx_in_front(processes, folder: Path, upstream: int) -> tuple[int, int]:
    """Debian's nginx running deploy/nginx.conf on loopback (nginx_on_loopback) with a self-signed
    certificate for companion.test, once it answers; return its HTTPS and HTTP ports."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "www").mkdir(exist_ok=True)
    run_shown([OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
               "-days", "2", "-subj", f"/CN={TEST_NAME}", "-addext", f"subjectAltName=DNS:{TEST_NAME}",
               "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")], timeout=60)
    for attempt in range(5):
        port, http_port = loopback_port(), loopback_port()
        (folder / "site.conf").write_text(nginx_on_loopback(folder, port, http_port, upstream))
        # the test's /etc/nginx/nginx.conf, around the site as Debian's is: its error log, its default
        # access log ("combined", every address whole) and the site included in `http`
        (folder / "nginx.conf").write_text(nginx_conf(folder, f"  include {folder}/site.conf;\n", access_log=f"{folder}/access.log"))
        log = folder / f"nginx-{attempt}.log"
        process = processes.start([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(log)], log)

        def answered():
            if process.poll() is not None:
                return "exited"
            return curl(port, folder / "cert.pem", "/healthz")[0] != 0

        if wait_for(answered, "nginx answered", log.read_text) is True:
            return port, http_port
        if "in use" not in log.read_text():
            raise AssertionError(log.read_text())
    raise AssertionError("nginx found no free port in 5 tries")


@pytest.mark.slow
@pytest.mark.skipif(CURL is None or OPENSSL is None, reason="curl and openssl are missing: apt-get install curl openssl")
def test_nginx_with_the_recipe_keeps_no_secret_in_its_access_and_error_logs(processes, tmp_path):
    """Joins, API calls, a stream and the plain-HTTP redirect through nginx over HTTPS, then a join
    while the app is down (502): nginx's access log (the one the recipe offers) writes each join
    without its secret, and its error log names the failed requests but never a join's."""
    server = Server(data=tmp_path / "srv", args=("--proxy", "1", "--public-url", f"https://{TEST_NAME}")).start()
    folder = tmp_path / "nginx"
    try:
        port, http_port = nginx_in_front(processes, folder, server.port)
        ca = folder / "cert.pem"
        tables, secrets = [], [server.key_link().rsplit("#key=", 1)[1]]
        for _ in range(5):
            status, body = curl(port, ca, "/api/v1/tables", "--header", "Content-Type: application/json",
                                "--data", json.dumps({"game": "gutenberg", "players": ["Anna", "Tom"]}))
            assert status == 201, body
            table = json.loads(body)
            tables.append(table)
            secrets.append(table["token"])
            assert table["join_url"] == f"https://{TEST_NAME}/join/{table['table']}/{table['token']}"
            # the phone scans the QR code: 303 to the table, its secret now in a cookie
            assert curl(port, ca, f"/join/{table['table']}/{table['token']}")[0] == 303
            token = ("--header", f"X-Table-Token: {table['token']}")
            assert curl(port, ca, f"/api/v1/tables/{table['table']}", *token)[0] == 200
            status, body = curl(port, ca, f"/api/v1/tables/{table['table']}/events", *token, "--header",
                                "Content-Type: application/json", "--data", json.dumps(
                                    {"type": "fame", "data": {"player": 0, "delta": 1}, "expected_version": 0}))
            assert status == 200, body
        first = tables[0]
        # the same join with its slash percent-encoded, which the app reads as a slash; the archive's old ?key= link
        assert curl(port, ca, f"/join/{first['table']}%2F{first['token']}")[0] == 303
        assert curl(port, ca, f"/plays?key={secrets[0]}")[0] in (200, 400)
        # plain HTTP: sent to HTTPS, the join address whole in the Location, and in no log
        status, headers, _ = Address(http_port).send("GET", f"/join/{first['table']}/{first['token']}",
                                                     headers={"Host": TEST_NAME})
        assert status == 301 and headers["Location"] == first["join_url"], (status, headers)
        # the event stream comes through unbuffered: its first lines before the table changes
        stream = subprocess.run([CURL, "--silent", "--no-buffer", "--max-time", "3", "--cacert", str(ca),
                                 "--resolve", f"{TEST_NAME}:{port}:127.0.0.1", "--header",
                                 f"Cookie: tc_{first['table']}={first['token']}",
                                 f"https://{TEST_NAME}:{port}/t/{first['table']}/events?v=0"],
                                capture_output=True, text=True, timeout=30)
        assert "retry: 1000" in stream.stdout, stream
        server.stop()
        # the app is down: a phone's join and an API call get nginx's 502, and so does the health check
        assert curl(port, ca, f"/join/{first['table']}/{first['token']}")[0] == 502
        assert curl(port, ca, f"/api/v1/tables/{first['table']}", "--header", f"X-Table-Token: {first['token']}")[0] == 502
        assert curl(port, ca, "/healthz")[0] == 502
        assert curl(port, ca, f"/plays?key={secrets[0]}")[0] == 502  # an old bookmark of the archive's link
    finally:
        server.stop()
    logs = {path.name: path.read_text() for path in folder.glob("*.log")}
    for name, text in logs.items():
        for secret in secrets:
            assert secret not in text, (name, text)
    # the logs were written: each join, secret redacted, and the failures
    access = logs["table-companion.log"]
    for table in tables:
        assert f'"GET /join/{table["table"]}/[redacted] HTTP/2.0" 303 ' in access, access
    assert f'"GET /join/{first["table"]}/[redacted] HTTP/1.1" 301 ' in access, access
    assert f'"GET /join/{first["table"]}/[redacted] HTTP/2.0" 502 ' in access, access
    assert '"GET /plays HTTP/2.0" ' in access and "?" not in access, access
    assert "connect() failed" in logs["error.log"] and 'request: "GET /healthz HTTP/2.0"' in logs["error.log"], logs["error.log"]
    assert "/join/" not in logs["error.log"] and "/plays" not in logs["error.log"], logs["error.log"]
    assert not logs.get("access.log"), logs.get("access.log")  # Debian's default log: the site's requests never reach it
