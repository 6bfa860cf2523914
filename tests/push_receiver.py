#!/usr/bin/env python3
"""A loopback stand-in for the backends record --push speaks to, for the tests
and bench/continuous.sh: Pyroscope's POST /ingest and OTLP/HTTP's
POST /v1development/profiles. Neither backend is packaged in Debian, so the
tests judge what arrives with the real decoders (go tool pprof, protoc) on
the bodies this keeps.

    push_receiver.py DIR [--fail N] [--status CODE] [--down-file FILE]

Binds 127.0.0.1 on a free port and writes it to DIR/port. Each request is
kept: DIR/NNNN.body (the body) and a line of DIR/requests.jsonl (path,
query, headers, size, the status answered). --fail N answers the first N
requests with --status CODE (default 503) and keeps nothing of them; while
--down-file FILE exists every request gets 503. Runs until killed.
"""
import argparse
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("--fail", type=int, default=0)
parser.add_argument("--status", type=int, default=503)
parser.add_argument("--down-file")
args = parser.parse_args()

lock = threading.Lock()
state = {"seen": 0, "kept": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):  # quiet: the tests read requests.jsonl
        pass

    def answer(self, code, text):
        data = (text + "\n").encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        url = urlsplit(self.path)
        with lock:
            state["seen"] += 1
            if state["seen"] <= args.fail:
                code = args.status
            elif args.down_file and os.path.exists(args.down_file):
                code = 503
            elif url.path not in ("/ingest", "/v1development/profiles"):
                code = 404
            else:
                code = 200
            entry = {
                "n": state["seen"],
                "path": url.path,
                "query": {k: v[0] for k, v in parse_qs(url.query).items()},
                "content_type": self.headers.get("Content-Type"),
                "authorization": self.headers.get("Authorization"),
                "size": len(body),
                "status": code,
            }
            if code == 200:
                state["kept"] += 1
                entry["body"] = "%04d.body" % state["kept"]
                with open(os.path.join(args.dir, entry["body"]), "wb") as f:
                    f.write(body)
            with open(os.path.join(args.dir, "requests.jsonl"), "a") as f:
                f.write(json.dumps(entry) + "\n")
        if code == 200:
            self.answer(200, "ok")
        elif code == 401:
            self.answer(401, "invalid token: the receiver refuses it")
        else:
            self.answer(code, "receiver answers %d" % code)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(args.dir, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(args.dir, "port.tmp"), os.path.join(args.dir, "port"))
server.serve_forever()
