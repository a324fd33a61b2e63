"""A proxy in front of the real service that misbehaves on request: the flaky network and load
balancer the SDK's retries are for. It forwards everything else untouched and records what the
client sent."""

from __future__ import annotations

import http.client
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional


class FlakyProxy:
    def __init__(self, target: str) -> None:
        self.target = urllib.parse.urlsplit(target)
        #: behaviours for the next matching requests, in order: "503", "429", "drop"
        self.plan: list[str] = []
        #: only requests with this method and path prefix are subject to the plan
        self.match: tuple[str, str] = ("POST", "/v1/extractions")
        #: (method, path, headers) of every request received
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                with proxy._lock:
                    proxy.requests.append((self.command, self.path, headers))
                    planned: Optional[str] = None
                    if proxy.plan and (self.command, self.path[: len(proxy.match[1])]) == proxy.match:
                        planned = proxy.plan.pop(0)
                if planned in ("503", "429"):
                    payload = b'{"status":false,"message":"try later"}'
                    self.send_response(int(planned))
                    self.send_header("Retry-After", "1")
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                conn = http.client.HTTPConnection(proxy.target.hostname or "127.0.0.1", proxy.target.port, timeout=120)
                forwarded = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                conn.request(self.command, self.path, body=body or None, headers=forwarded)
                res = conn.getresponse()
                data = res.read()
                conn.close()
                if planned == "drop":
                    # The service acted; the client never hears of it.
                    self.close_connection = True
                    self.connection.close()
                    return
                self.send_response(res.status)
                for name, value in res.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def planned_requests(self) -> list[dict[str, str]]:
        method, prefix = self.match
        return [h for m, p, h in self.requests if m == method and p.startswith(prefix)]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
