"""``mdcx browse``: a page on this machine to unlock, search and read packages.

A small HTTP server from the standard library serves one page (plain HTML,
CSS and JavaScript shipped in ``_browse_page/``) and a JSON interface over
``Session``.  It is built to be safe on a shared machine and against web
pages open in the same browser:

* it listens on 127.0.0.1 unless ``--host`` says otherwise (and then warns);
* a request whose ``Host`` is not a loopback name or an address is refused,
  so a web site cannot reach it by pointing its own name at 127.0.0.1 (DNS
  rebinding);
* it serves exactly four fixed paths and the ``/api/`` calls, nothing read
  from the request ever names a file;
* every call needs the access code the printed address carries after ``#``
  (which the browser never sends in a request or a Referer; the page moves it
  into the tab's session storage), so other users of the machine and other
  sites cannot use an unlocked package; calls are ``POST`` with a JSON body
  and a custom header, so a cross-site form or script cannot send one
  without a refused preflight, and a foreign ``Origin`` is refused too;
* passphrases arrive in a request body over loopback, are never logged (the
  server logs nothing) and never appear in an address; locking, or stopping
  the server, closes the packages and drops their keys;
* every response forbids framing, sniffing and referrers, and the page's
  content policy allows only its own script and style: document text is
  rendered by ``_markdown`` with everything escaped, and even a mistake
  there could not run a script.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import secrets
import socket
import sys
import threading
import urllib.parse
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path

from ._browse_session import Session
from ._errors import InputError, MdcxError, PassphraseError

LOOPBACK = "127.0.0.1"
LOOPBACK_NAMES = frozenset({"localhost", "localhost."})
MAX_BODY = 64 * 1024
TOKEN_HEADER = "X-Mdcx-Token"
POLL_SECONDS = 0.1  # how soon a stop request is noticed
REQUEST_SECONDS = 30.0  # a connection silent this long mid-request (or idle between requests) is closed

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/browse.css": ("browse.css", "text/css; charset=utf-8"),
    "/browse.js": ("browse.js", "text/javascript; charset=utf-8"),
}

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _asset(name: str) -> bytes:
    return resources.files("mdcx.format").joinpath("_browse_page", name).read_bytes()


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` header -> (host, port), or None when malformed."""
    value = value.strip()
    if not value or any(c.isspace() or c in "/\\@?#" for c in value):
        return None
    if value.startswith("["):
        end = value.find("]")
        if end == -1:
            return None
        host, rest = value[1:end], value[end + 1 :]
    else:
        host, _, port_text = value.partition(":")
        rest = ":" + port_text if _ else ""
    if rest and not (rest.startswith(":") and rest[1:].isdigit()):
        return None
    return host.lower(), int(rest[1:]) if rest else None


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "mdcx-browse"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = REQUEST_SECONDS

    def log_message(self, format: str, *args: object) -> None:  # never log: bodies hold passphrases
        pass

    # -- checks ---------------------------------------------------------------------------

    def _host_ok(self) -> bool:
        values = self.headers.get_all("Host") or []
        parsed = _split_host(values[0]) if len(values) == 1 else None
        if parsed is None:
            return False
        host, port = parsed
        if port is not None and port != self.server.server_port:
            return False
        return self.server.host_allowed(host)

    def _origin_ok(self) -> bool:
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            return False
        origin = self.headers.get("Origin")
        if origin is None:
            return True
        parts = urllib.parse.urlsplit(origin)
        if parts.scheme != "http" or parts.path or parts.query:
            return False
        parsed = _split_host(parts.netloc)
        return (
            parsed is not None
            and parsed[1] == self.server.server_port
            and self.server.host_allowed(parsed[0])
            and parts.netloc.lower() == (self.headers.get("Host") or "").strip().lower()
        )

    def _token_ok(self) -> bool:
        given = self.headers.get(TOKEN_HEADER, "")
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.server.token.encode())

    # -- responses -------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: dict) -> None:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8")

    def _refuse(self, status: HTTPStatus, message: str) -> None:
        # The request's body may be unread: end the connection rather than misread it as the next request.
        self.close_connection = True
        body = json.dumps({"error": message}, ensure_ascii=False).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8", {"Connection": "close"})

    def _path(self) -> str | None:
        raw = self.path
        if not raw.startswith("/") or raw.startswith("//"):
            return None
        return urllib.parse.urlsplit(raw).path

    # -- methods ---------------------------------------------------------------------------

    def do_GET(self) -> None:
        if not self._host_ok():
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only to its loopback address")
            return
        path = self._path()
        if path not in STATIC:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        name, content_type = STATIC[path]
        self._send(HTTPStatus.OK, _asset(name), content_type)

    do_HEAD = do_GET

    def do_POST(self) -> None:
        if not self._host_ok():
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "this server answers only to its loopback address")
            return
        if not self._origin_ok():
            self._refuse(HTTPStatus.FORBIDDEN, "requests from other sites are refused")
            return
        path = self._path()
        call = self.server.calls.get(path or "")
        if call is None:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        if not self._token_ok():
            self._refuse(
                HTTPStatus.FORBIDDEN,
                "missing or wrong access code: open the address `mdcx browse` printed, with its #k=... part",
            )
            return
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json":
            self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON")
            return
        if "Transfer-Encoding" in self.headers:  # its body would be read as the next request
            self._refuse(HTTPStatus.LENGTH_REQUIRED, "send the request with a Content-Length")
            return
        lengths = self.headers.get_all("Content-Length") or ["0"]
        try:
            length = int(lengths[0]) if len(lengths) == 1 else -1  # two may disagree: neither is trusted
        except ValueError:
            length = -1
        if length < 0:
            self._refuse(HTTPStatus.BAD_REQUEST, "send one Content-Length, a number of bytes")
            return
        if length > MAX_BODY:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"requests are limited to {MAX_BODY} bytes")
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except TimeoutError:
            self._refuse(HTTPStatus.REQUEST_TIMEOUT, "the request's body did not arrive")
            return
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):  # deep nesting: RecursionError
            self._refuse(HTTPStatus.BAD_REQUEST, "the request is not JSON")
            return
        if not isinstance(body, dict):
            self._refuse(HTTPStatus.BAD_REQUEST, "the request is not a JSON object")
            return
        try:
            call(self, body)
        except PassphraseError as exc:
            self._refuse(HTTPStatus.FORBIDDEN, str(exc))
        except MdcxError as exc:
            self._refuse(HTTPStatus.BAD_REQUEST, str(exc))
        except (TypeError, ValueError, KeyError, OverflowError) as exc:  # OverflowError: int(Infinity)
            self._refuse(HTTPStatus.BAD_REQUEST, f"malformed request ({type(exc).__name__})")
        except (ConnectionError, TimeoutError):  # the client went away: nothing to answer
            raise
        except Exception as exc:  # a bug: say so on the page rather than drop the connection
            self._refuse(
                HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error ({type(exc).__name__}); please report it"
            )

    # -- calls -----------------------------------------------------------------------------

    def api_state(self, body: dict) -> None:
        self._json(HTTPStatus.OK, self.server.session.state())

    def api_unlock(self, body: dict) -> None:
        keys = body.get("keys", body.get("key"))
        if not (isinstance(keys, str) or (isinstance(keys, list) and all(isinstance(k, str) for k in keys))):
            raise PassphraseError("send a passphrase")
        result = self.server.session.unlock(keys)
        self._json(
            HTTPStatus.FORBIDDEN if result.get("error") and not result["opened"] else HTTPStatus.OK, result
        )

    def api_lock(self, body: dict) -> None:
        self._json(HTTPStatus.OK, self.server.session.lock())

    def api_search(self, body: dict) -> None:
        q = body.get("q")
        if not isinstance(q, str):
            raise InputError("send the question as text")
        options = {k: body.get(k) or None for k in ("only", "prefer")}
        result = self.server.session.search(
            q, limit=int(body.get("limit") or 10), mode=str(body.get("mode") or "auto"), **options
        )
        self._json(HTTPStatus.OK, result)

    def api_document(self, body: dict) -> None:
        passage = body.get("passage")
        result = self.server.session.document(
            str(body["package"]),
            str(body["document"]),
            passage=int(passage) if passage is not None else None,
            question=str(body.get("q") or ""),
        )
        self._json(HTTPStatus.OK, result)

    def api_download(self, body: dict) -> None:
        name, data = self.server.session.download(str(body["package"]), str(body["document"]))
        fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\;' else "_" for c in name)
        disposition = f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{urllib.parse.quote(name)}"
        self._send(HTTPStatus.OK, data, "application/octet-stream", {"Content-Disposition": disposition})

    def api_attachments(self, body: dict) -> None:
        self._json(HTTPStatus.OK, self.server.session.attachments())

    def api_integrity(self, body: dict) -> None:
        self._json(HTTPStatus.OK, self.server.session.integrity(str(body["package"])))

    def api_verify(self, body: dict) -> None:
        self._json(HTTPStatus.OK, self.server.session.verify(str(body["package"]), str(body["public_key"])))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address: tuple[str, int], session: Session, token: str, exposed: bool) -> None:
        self.session = session
        self.token = token
        self.exposed = exposed
        self.bound_host = address[0].lower()
        self.calls = {
            f"/api/{name[4:]}": getattr(_Handler, name) for name in dir(_Handler) if name.startswith("api_")
        }
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away or went silent is not news; anything else is one line, not a traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        try:
            print(f"mdcx browse: error: a request failed ({type(exc).__name__})", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass

    def host_allowed(self, host: str) -> bool:
        """Loopback names always; with ``--host``, that name too and any address (DNS cannot rebind those)."""
        if _is_loopback(host):
            return True
        return self.exposed and (host == self.bound_host or _is_address(host))


class BrowseServer:
    """The browse server, serving ``paths`` until ``close``; usable from Python and tests.

    ``keys``: passphrases to unlock with at once (one for all or one per
    package).  ``host`` other than 127.0.0.1 exposes the page beyond this
    machine: the command warns when it is given.
    """

    def __init__(
        self,
        paths: Sequence[str | Path],
        *,
        keys: Sequence[str] | None = None,
        host: str = LOOPBACK,
        port: int = 0,
    ) -> None:
        if not 0 <= port <= 65535:
            raise InputError(f"--port must be from 0 (any free port) to 65535, not {port}")
        self.session = Session(paths)
        self.unlock_error: str | None = None
        if keys:
            result = self.session.unlock(list(keys) if len(keys) > 1 else keys[0])
            self.unlock_error = result.get("error")
        self.token = secrets.token_urlsafe(24)
        try:
            self._server = _Server((host, port), self.session, self.token, exposed=not _is_loopback(host))
        except OSError as exc:
            self.session.close()
            if exc.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
                raise InputError(
                    f"port {port} on {host} is in use; choose another with --port, or leave it out for a free one"
                ) from None
            raise InputError(f"cannot serve on {host} port {port} ({exc.strerror or exc})") from None
        self.host = host
        self.port = self._server.server_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The page's address, with the access code after ``#``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        if host in ("0.0.0.0", "[::]"):
            host = LOOPBACK
        return f"http://{host}:{self.port}/#k={self.token}"

    def start(self) -> BrowseServer:
        """Serve on a background thread (tests, embedding)."""
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(POLL_SECONDS,), name="mdcx-browse", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._server.serve_forever(POLL_SECONDS)

    def close(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        self._server.server_close()
        self.session.close()

    def __enter__(self) -> BrowseServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _startup_keys(count: int, keys: Sequence[str], key_file: str | None) -> list[str] | None:
    """Passphrases from --key, --key-file, MDCX_KEY_FILE or MDCX_KEY; None when none is given."""
    from ._keys import keys_for

    if (
        not keys
        and key_file is None
        and not os.environ.get("MDCX_KEY_FILE")
        and not os.environ.get("MDCX_KEY")
    ):
        return None
    return keys_for(count, keys=keys, key_file=key_file)


def run(
    paths: Sequence[str],
    *,
    keys: Sequence[str] = (),
    key_file: str | None = None,
    host: str | None = None,
    port: int = 0,
    open_browser: bool = True,
) -> int:
    """The ``mdcx browse`` command: serve until interrupted, printing the address."""
    from ._reader import read_header

    for p in paths:  # a wrong path is reported before any key is used or port taken
        read_header(p)
    startup = _startup_keys(len(paths), keys, key_file)
    server = BrowseServer(paths, keys=startup, host=host or LOOPBACK, port=port)
    try:
        if host is not None and not _is_loopback(host):
            print(
                f"warning: serving on {host}, not only on this machine: anyone who can reach port "
                f"{server.port} can load the page, and a passphrase typed there crosses the network "
                "unencrypted",
                file=sys.stderr,
            )
        if server.unlock_error:
            print(f"note: {server.unlock_error}; type the passphrase into the page", file=sys.stderr)
        count = len(paths)
        print(f"serving {count} package{'s' if count != 1 else ''} at {server.url}", flush=True)
        print("open that address (its #k=... part is the access code); press Ctrl-C to stop", flush=True)
        if open_browser:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
        server.serve_forever()
    except KeyboardInterrupt:  # Ctrl-C at any moment once serving: a normal stop
        pass
    finally:
        server.close()
    print("stopped; the packages are closed", flush=True)
    return 0
