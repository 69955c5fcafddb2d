#!/usr/bin/env python3
"""server.py ROOT LOG: a stand-in for shadertoy.com's API on 127.0.0.1, serving recorded responses.

GET /api/v1/shaders/ID?key=KEY answers ROOT/api/ID.http: a first line "STATUS CONTENT-TYPE", then the
body as the site sent it; an ID without a file gets the API's {"Error":"Shader not found"}, and a key
other than "testkey" its {"Error":"Invalid key"} (both with status 200, as the API does). GET
/media/... serves ROOT/media/... (404 when absent). The ID tstSlow waits 20 s before answering; the ID
tstDrip, and any path under /media/drip/, send a long answer two bytes a second, for ever; a path
under /media/html/ is answered 200 with an HTML page, as a site's error page can be; a path under
/media/slow/ is ROOT/media/a/'s file of that name, answered after 2 s.
A hostile server, for the redaction of secrets (each with any key): the ID tstEch answers the API's
{"Error"} echoing the key it got, decoded and as sent; tstRdk redirects to http://KEY.invalid/?key=KEY
(libcurl's message names the host); tstRdp to http://u:KEY@127.0.0.1:1/?key=KEY (nobody listens);
tstRdl to itself with ?key=KEY for ever.
Prints the port it listens on, then serves until killed; each request's path (the key left out) goes
to LOG, one a line.
"""
import http.server
import json
import os
import sys
import time
import urllib.parse

ROOT, LOG = sys.argv[1], sys.argv[2]


class Handler(http.server.BaseHTTPRequestHandler):
    def send(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def drip(self, ctype):
        """a server that never stalls outright, so that only an overall limit ends the transfer"""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", "100000000")
        self.end_headers()
        try:
            while True:
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.5)
        except OSError:  # the client gave up
            return

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query)
        with open(LOG, "a") as f:
            f.write("%s key=%s\n" % (url.path, "ok" if q.get("key") == ["testkey"] else repr(q.get("key"))))
        parts = url.path.split("/")
        key = (q.get("key") or [""])[0]
        if url.path.startswith("/api/v1/shaders/") and len(parts) == 5 and parts[4] == "tstEch":
            said = {"Error": "no such key: %s (as sent: %s)" % (key, url.query)}
            return self.send(200, "application/json", json.dumps(said).encode())
        redirect = {"tstRdk": "http://%s.invalid/?key=%s" % (key, key), "tstRdp": "http://u:%s@127.0.0.1:1/?key=%s" % (key, key),
                    "tstRdl": "/api/v1/shaders/tstRdl?key=%s" % key}
        if url.path.startswith("/api/v1/shaders/") and len(parts) == 5 and parts[4] in redirect:
            self.send_response(302)
            self.send_header("Location", redirect[parts[4]])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if url.path.startswith("/api/v1/shaders/") and len(parts) == 5:
            if q.get("key") != ["testkey"]:
                return self.send(200, "application/json", b'{"Error":"Invalid key"}')
            if parts[4] == "tstSlow":  # a server that never answers in time
                time.sleep(20)
            if parts[4] == "tstDrip":
                return self.drip("application/json")
            rec = os.path.join(ROOT, "api", parts[4] + ".http")
            if not parts[4].isalnum() or not os.path.isfile(rec):
                return self.send(200, "application/json", b'{"Error":"Shader not found"}')
            with open(rec, "rb") as f:
                head, _, body = f.read().partition(b"\n")
            status, ctype = head.decode().split(" ", 1)
            return self.send(int(status), ctype, body)
        if url.path.startswith("/media/slow/"):
            time.sleep(2)
            p = os.path.join(ROOT, "media", "a", parts[-1])
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    return self.send(200, "image/png", f.read())
        if url.path.startswith("/media/drip/"):
            return self.drip("image/png")
        if url.path.startswith("/media/html/"):
            return self.send(200, "text/html", b"<!DOCTYPE html><html><body>Not here, sorry</body></html>")
        if url.path.startswith("/media/") and ".." not in parts:
            p = os.path.join(ROOT, url.path.lstrip("/"))
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    return self.send(200, "image/png", f.read())
        self.send(404, "text/html", b"<html><body>404 Not Found</body></html>")

    def log_message(self, *a):
        pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
