#!/usr/bin/env python3
"""A small MCP server over stdio, standard library only (no PyPI).

Newline-delimited JSON-RPC 2.0. It answers initialize, asks the client
roots/list after notifications/initialized and again on
notifications/roots/list_changed, and offers two tools:

  read_first  {"path": P}  the first line of file P, or the error as
                           "ERRNO_NAME: message" (EACCES: ...), isError
  roots       {}           the roots it last fetched, as JSON

rootpick's tests run it enforced (mcpconn/enforce_runtime_linux_test.go).
"""

import errno
import json
import sys

roots = None  # the last roots/list answer, None before the first
next_id = 0
pending = {}  # id of a request of ours -> its method


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def ask_roots():
    global next_id
    next_id += 1
    rid = "py-%d" % next_id
    pending[rid] = "roots/list"
    send({"jsonrpc": "2.0", "id": rid, "method": "roots/list"})


def text_result(text, is_error=False):
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def read_first(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return text_result(f.readline().rstrip("\n"))
    except OSError as e:
        name = errno.errorcode.get(e.errno, str(e.errno))
        return text_result("%s: %s" % (name, e.strerror), True)


TOOLS = [
    {"name": "read_first", "description": "the first line of a file",
     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "roots", "description": "the roots this server fetched last",
     "inputSchema": {"type": "object", "properties": {}}},
]


def handle(msg):
    global roots
    method = msg.get("method")
    mid = msg.get("id")
    if method is None:  # a response to one of our requests
        if pending.pop(mid, None) == "roots/list" and "result" in msg:
            roots = msg["result"].get("roots", [])
        return
    if method == "notifications/initialized" or method == "notifications/roots/list_changed":
        ask_roots()
        return
    if mid is None:
        return  # another notification
    params = msg.get("params") or {}
    if method == "initialize":
        result = {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                  "capabilities": {"tools": {}},
                  "serverInfo": {"name": "pyserver", "version": "1"}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        name = params.get("name")
        args = params.get("arguments") or {}
        if name == "read_first":
            result = read_first(str(args.get("path", "")))
        elif name == "roots":
            result = text_result(json.dumps(roots))
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": "unknown tool %s" % name}})
            return
    else:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "method not found: %s" % method}})
        return
    send({"jsonrpc": "2.0", "id": mid, "result": result})


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
            continue
        if isinstance(msg, dict):
            handle(msg)


if __name__ == "__main__":
    main()
