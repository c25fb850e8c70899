"""A throw-away IRC network for the tests: InspIRCd with Anope services, on free local ports.

InspIRCd (Debian's `inspircd`) serves clients in plain text and over TLS (a self-signed
certificate made at test time, which the tests trust as their CA), with fakelag on: a client
that sends faster than the connect class allows is slowed down, and one whose backlog passes
the receive queue is thrown out for flooding. Anope (Debian's `anope`) links to it as its
services server and brings accounts (NickServ) and SASL PLAIN. `.ci/ircd` installs both.
"""

from __future__ import annotations

import contextlib
import datetime
import importlib.util
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

INSPIRCD = "/usr/sbin/inspircd"
ANOPE = "/usr/sbin/anope"
SERVER = "irc.test"
SERVICES = "services.test"
LINK_PASSWORD = "link-secret"
START_TIMEOUT = 30.0


class IrcdUnavailable(RuntimeError):
    """The IRC server or its services are not installed here (run .ci/ircd as root)."""


@dataclass(frozen=True)
class Network:
    """Where the test network listens, and the CA that signed its certificate."""

    host: str
    port: int
    tls_port: int
    ca_file: Path
    folder: Path

    def log_tail(self, lines: int = 40) -> str:
        text = []
        for name in ("inspircd.log", "services.log"):
            path = self.folder / name
            if path.exists():
                text += path.read_text(errors="replace").splitlines()[-lines:]
        return "\n".join(text)


def require_ircd() -> None:
    """IrcdUnavailable, with the reason, unless both programs are installed."""
    missing = [p for p in (INSPIRCD, ANOPE) if not os.access(p, os.X_OK)]
    if missing:
        raise IrcdUnavailable(
            f"IRC tests need {' and '.join(missing)}: run .ci/ircd as root "
            "(apt-get install inspircd anope)"
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost; it is its own CA. Made with
    the `cryptography` package, or the `openssl` command where that is missing."""
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    if importlib.util.find_spec("cryptography") is None:
        command = ["openssl", "req", "-x509", "-newkey", "ec", "-nodes", "-days", "2"]
        command += ["-pkeyopt", "ec_paramgen_curve:P-256", "-subj", "/CN=bohnanza test IRC"]
        command += ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        command += ["-addext", "basicConstraints=critical,CA:TRUE"]
        command += ["-keyout", str(key_path), "-out", str(cert_path)]
        subprocess.run(command, check=True, capture_output=True)
        return cert_path, key_path
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bohnanza test IRC")])
    now = datetime.datetime.now(datetime.UTC)
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


INSPIRCD_CONF = """\
<server name="{server}" description="bohnanza test" network="BeanNet">
<admin name="test" nick="test" email="test@example.org">
<module name="ssl_gnutls">
<module name="spanningtree">
<module name="services_account">
<module name="hidechans">
<module name="sasl">
<module name="cap">
<module name="ircv3">
<module name="ircv3_msgid">
<module name="ircv3_ctctags">
<sslprofile name="Clients" provider="gnutls" certfile="{cert}" keyfile="{key}"
    hash="sha256" requestclientcert="no">
<bind address="127.0.0.1" port="{port}" type="clients">
<bind address="127.0.0.1" port="{tls_port}" type="clients" sslprofile="Clients">
<bind address="127.0.0.1" port="{link_port}" type="servers">
<link name="{services}" ipaddr="127.0.0.1" port="{link_port}"
    sendpass="{password}" recvpass="{password}">
<uline server="{services}" silent="yes">
<sasl target="{services}" requiressl="no">
<connect name="main" allow="*" maxchans="50" timeout="30" pingfreq="120"
    hardsendq="1M" softsendq="65536" recvq="{recvq}" threshold="{threshold}"
    commandrate="{commandrate}" fakelag="yes" localmax="100" globalmax="100"
    useident="no" limit="500" maxconnwarn="off" resolvehostnames="no">
<dns server="127.0.0.1" timeout="1">
<options defaultmodes="nt" hostintopic="no">
<security hidesplits="no" hideulines="no" flatlinks="no">
<performance softlimit="500" clonesonconnect="no" nouserdns="yes">
<limits maxnick="30" maxchan="64" maxmodes="20" maxident="11" maxhost="64"
    maxquit="255" maxtopic="307" maxkick="255" maxreal="128" maxgecos="128" maxaway="200">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{folder}/inspircd.log">
<pid file="{folder}/inspircd.pid">
<files motd="{folder}/motd.txt">
"""

ANOPE_CONF = """\
uplink {{
    host = "127.0.0.1"
    ipv6 = no
    ssl = no
    port = {link_port}
    password = "{password}"
}}
serverinfo {{
    name = "{services}"
    description = "Services"
    pid = "{folder}/anope.pid"
    motd = "{folder}/motd.txt"
}}
module {{
    name = "inspircd3"
    use_server_side_mlock = yes
    use_server_side_topiclock = yes
}}
networkinfo {{
    networkname = "BeanNet"
    nicklen = 30
    userlen = 10
    hostlen = 64
    chanlen = 32
    modelistsize = 100
    vhost_chars = "abcdefghijklmnopqrstuvwxyz0123456789.-"
    allow_undotted_vhosts = false
    disallow_start_or_end = ".-"
}}
options {{
    seed = 7919
    casemap = "rfc1459"
    strictpasswords = no
    badpasslimit = 0
    badpasstimeout = 1h
    updatetimeout = 5m
    expiretimeout = 30m
    readtimeout = 5s
    warningtimeout = 4h
    timeoutcheck = 3s
    retrywait = 2s
    hideprivilegedcommands = yes
    hideregisteredcommands = yes
}}
log {{
    target = "services.log"
    admin = "*"
    servers = "*"
    users = "*"
    other = "*"
}}
mail {{
    usemail = no
}}
module {{
    name = "db_flatfile"
    database = "anope.db"
    keepbackups = 0
    fork = no
}}
module {{
    name = "enc_sha256"
}}
service {{
    nick = "NickServ"
    user = "services"
    host = "{services}"
    gecos = "Nickname Registration Service"
}}
module {{
    name = "nickserv"
    client = "NickServ"
    forceemail = no
    confirmemailchanges = no
    defaults = "hide_email hide_mask"
    regdelay = 0
    expire = 21d
    modeonid = no
    killquick = 20s
    kill = 60s
    enforceruser = "enforcer"
    enforcerhost = "{services}"
    releasetimeout = 1m
    guestnickprefix = "Guest"
    nonicknameownership = yes
    passlen = 32
}}
module {{
    name = "ns_register"
    registration = "none"
    resenddelay = 90s
}}
command {{
    service = "NickServ"
    name = "REGISTER"
    command = "nickserv/register"
}}
module {{
    name = "ns_identify"
    maxlogins = 10
}}
command {{
    service = "NickServ"
    name = "IDENTIFY"
    command = "nickserv/identify"
}}
module {{
    name = "m_sasl"
}}
"""


@contextlib.contextmanager
def running_network(
    folder: Path, recvq: int = 8192, threshold: int = 60, rate: int = 50
) -> Iterator[Network]:
    """InspIRCd and Anope, started in `folder` and stopped on exit. A client may send `rate`
    lines a second, `threshold` at most within one second (the server counts each second
    anew); lines beyond wait in the server (fakelag), and one whose waiting lines pass `recvq`
    bytes is disconnected ("RecvQ exceeded")."""
    require_ircd()
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = make_certificate(folder)
    port, tls_port, link_port = free_port(), free_port(), free_port()
    values = {
        "server": SERVER,
        "services": SERVICES,
        "password": LINK_PASSWORD,
        "cert": cert,
        "key": key,
        "port": port,
        "tls_port": tls_port,
        "link_port": link_port,
        "folder": folder,
        "recvq": recvq,
        "threshold": threshold,
        "commandrate": rate * 1000,
    }
    (folder / "motd.txt").write_text("bohnanza test network\n")
    conf = folder / "inspircd.conf"
    conf.write_text(INSPIRCD_CONF.format(**values))
    services = folder / "services"
    (services / "data").mkdir(parents=True, exist_ok=True)
    (services / "logs").mkdir(exist_ok=True)
    (services / "services.conf").write_text(ANOPE_CONF.format(**values))
    with contextlib.ExitStack() as stack:
        ircd_log = stack.enter_context(open(folder / "inspircd.out", "wb"))
        ircd = subprocess.Popen(
            [INSPIRCD, "--config", str(conf), "--nofork", "--nopid", "--runasroot"],
            stdout=ircd_log,
            stderr=subprocess.STDOUT,
            cwd=folder,
        )
        stack.callback(_stop, ircd)
        _wait_for_port(port, ircd, folder / "inspircd.out")
        anope_log = stack.enter_context(open(folder / "services.out", "wb"))
        anope = subprocess.Popen(
            [
                ANOPE,
                "--nofork",
                f"--confdir={services}",
                f"--dbdir={services / 'data'}",
                f"--logdir={services / 'logs'}",
                "--modulesdir=/usr/lib/anope",
                "--config=services.conf",
            ],
            stdout=anope_log,
            stderr=subprocess.STDOUT,
            cwd=services,
        )
        stack.callback(_stop, anope)
        yield Network("127.0.0.1", port, tls_port, cert, folder)


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the IRC server stopped: {log.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"the IRC server did not listen within {START_TIMEOUT}s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
