#!/usr/bin/env python3
"""A real, headless Home Assistant Core for thuis-bridge's integration tests, and a way to ask it things.

Runs with the Home Assistant venv's python (aiohttp comes with Home Assistant; the rest is stdlib).
Verified with homeassistant==2025.4.4. The test (HomeAssistantIntegrationTests.swift) uses two subcommands:

    python ha_harness.py init  --dir D --mqtt-port P   # a fresh config dir: MQTT entry, onboarding done, a token
    python ha_harness.py serve --dir D                 # answers requests: one JSON line in, one JSON line out

The test starts `hass -c D --skip-pip` itself (it owns the process) and waits for the MQTT birth message.

`serve` reads requests from stdin, one JSON object a line, `{"id": 1, "command": "snapshot", ...}`, and
answers each on stdout with `{"id": 1, "ok": true, "result": ...}` or `{"id": 1, "ok": false, "error": "..."}`.
Commands (arguments are the request's other keys):

    ws             message               any websocket command, e.g. {"type": "get_config"}
    snapshot                             the MQTT entities (extended registry entries), the MQTT devices and
                                         the states of those entities
    call_service   domain, service, entity_id, data
    triggers       device_id             device_automation/trigger/list
    wait_entities  unique_ids, gone, timeout
                                         until every unique_id is in the entity registry (gone: none is)
    wait_device_gone  identifier, timeout
                                         until no device has the MQTT identifier
    wait_state     entity_id, state, state_not, attributes, timeout
                                         until the entity exists with that state (if given), not state_not
                                         (if given) and those attributes

Waits subscribe to Home Assistant's events (state_changed, entity/device_registry_updated) and look again at
each one; on timeout the error says what was seen last. `request --dir D '<json>'` runs one request from the
command line (for looking at a kept config dir by hand).

How the token works without a person (stock Home Assistant, no custom component): `init` writes
`.storage/auth` with one active owner in `system-admin`, no credentials, and one refresh token of type
`long_lived_access_token` whose random `jwt_key` the harness knows. The access token is an HS256 JWT
`{"iss": <refresh token id>, "iat": now, "exp": now + 10 y}` signed with that key: what
`AuthManager.async_create_access_token` makes and `async_validate_access_token` checks (auth/__init__.py).
`.storage/core.config_entries` holds one `mqtt` entry (discovery on, prefix `homeassistant`, in `options` as
minor version 2 has them) and `.storage/onboarding` marks every step done, so nothing waits for a person.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import os
import secrets
import socket
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable

META = "harness.json"  # url and token, inside the config dir


class HarnessError(Exception):
    pass


# --------------------------------------------------------------------------
# config dir


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_jwt(issuer: str, key: str, lifetime_s: int) -> str:
    """HS256 JWT exactly as homeassistant.auth.AuthManager.async_create_access_token makes it."""
    now = int(time.time())
    header = {"alg": "HS256", "typ": "JWT"}
    claims = {"iss": issuer, "iat": now, "exp": now + lifetime_s}
    signing_input = (
        _b64url(json.dumps(header, separators=(",", ":")).encode())
        + "."
        + _b64url(json.dumps(claims, separators=(",", ":")).encode())
    )
    signature = hmac.new(key.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + _b64url(signature)


def _store(key: str, data: Any, version: int, minor: int) -> dict:
    return {"version": version, "minor_version": minor, "key": key, "data": data}


def _write_json(path: Path, obj: Any) -> None:
    path.write_text(json.dumps(obj, indent=2))
    os.chmod(path, 0o600)


def init_config(cfg_dir: str | Path, mqtt_port: int, http_port: int | None = None) -> dict:
    """Writes a fresh config dir for a broker on 127.0.0.1:mqtt_port. Fails if it already has a configuration."""
    cfg = Path(cfg_dir)
    if (cfg / "configuration.yaml").exists():
        raise HarnessError(f"{cfg} already initialised")
    (cfg / ".storage").mkdir(parents=True, exist_ok=True)
    http_port = http_port or free_port()
    # Everything Home Assistant would otherwise detect or ask; http on loopback only (default 0.0.0.0:8123).
    (cfg / "configuration.yaml").write_text(
        "homeassistant:\n"
        "  name: thuis-test\n"
        "  latitude: 52.37\n  longitude: 4.89\n  elevation: 0\n"
        "  unit_system: metric\n  time_zone: UTC\n  currency: EUR\n  country: NL\n"
        "http:\n"
        "  server_host: 127.0.0.1\n"
        f"  server_port: {http_port}\n"
        "logger:\n  default: info\n"
    )

    now = datetime.now(timezone.utc).isoformat()
    entry = {
        "created_at": now,
        "data": {"broker": "127.0.0.1", "port": mqtt_port},
        "discovery_keys": {},
        "disabled_by": None,
        "domain": "mqtt",
        "entry_id": uuid.uuid4().hex[:26].upper(),
        "minor_version": 2,
        "modified_at": now,
        "options": {"discovery": True, "discovery_prefix": "homeassistant"},
        "pref_disable_new_entities": False,
        "pref_disable_polling": False,
        "source": "user",
        "subentries": [],
        "title": "127.0.0.1",
        "unique_id": None,
        "version": 1,
    }
    _write_json(cfg / ".storage/core.config_entries", _store("core.config_entries", {"entries": [entry]}, 1, 5))
    _write_json(
        cfg / ".storage/onboarding",
        _store("onboarding", {"done": ["user", "core_config", "analytics", "integration"]}, 4, 1))

    user_id, refresh_id, jwt_key = uuid.uuid4().hex, uuid.uuid4().hex, secrets.token_hex(64)
    lifetime = 10 * 365 * 24 * 3600
    auth = {
        "users": [{
            "id": user_id, "group_ids": ["system-admin"], "is_owner": True, "is_active": True,
            "name": "thuis-test", "system_generated": False, "local_only": False,
        }],
        "groups": [
            {"id": "system-admin", "name": "Administrators"},
            {"id": "system-users", "name": "Users"},
            {"id": "system-read-only", "name": "Read Only"},
        ],
        "credentials": [],
        "refresh_tokens": [{
            "id": refresh_id, "user_id": user_id, "client_id": None, "client_name": "thuis-test",
            "client_icon": None, "token_type": "long_lived_access_token", "created_at": now,
            "access_token_expiration": float(lifetime), "token": secrets.token_hex(64),
            "jwt_key": jwt_key, "last_used_at": None, "last_used_ip": None, "expire_at": None,
            "credential_id": None, "version": "2025.4.4",
        }],
    }
    _write_json(cfg / ".storage/auth", _store("auth", auth, 1, 1))

    meta = {
        "url": f"ws://127.0.0.1:{http_port}/api/websocket",
        "http_port": http_port,
        "token": make_jwt(refresh_id, jwt_key, lifetime),
    }
    _write_json(cfg / META, meta)
    return meta


def read_meta(cfg_dir: str | Path) -> dict:
    path = Path(cfg_dir) / META
    if not path.exists():
        raise HarnessError(f"{path} not found: run init first")
    return json.loads(path.read_text())


# --------------------------------------------------------------------------
# websocket API


class WS:
    """Minimal async client for Home Assistant's /api/websocket: authenticates, sends commands, reads events."""

    def __init__(self, url: str, token: str):
        self.url, self.token = url, token
        self._id = 0

    async def __aenter__(self) -> "WS":
        import aiohttp

        self._session = aiohttp.ClientSession()
        try:
            self._ws = await self._session.ws_connect(self.url, max_msg_size=0)
            hello = await self._ws.receive_json(timeout=10)
            if hello.get("type") != "auth_required":
                raise HarnessError(f"unexpected hello {hello}")
            await self._ws.send_json({"type": "auth", "access_token": self.token})
            answer = await self._ws.receive_json(timeout=10)
            if answer.get("type") != "auth_ok":
                raise HarnessError(f"auth failed: {answer}")
        except BaseException:
            await self._session.close()
            raise
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._ws.close()
        await self._session.close()

    async def call(self, message: dict, timeout: float = 30) -> Any:
        """Sends a command and returns its result. Events that arrive meanwhile are dropped: whoever waits for
        events looks at the current state after each call anyway."""
        self._id += 1
        mid = self._id
        await self._ws.send_json({**message, "id": mid})
        async with asyncio.timeout(timeout):
            while True:
                answer = await self._ws.receive_json()
                if answer.get("id") == mid and answer.get("type") == "result":
                    break
        if not answer.get("success"):
            raise HarnessError(f"{message.get('type')} failed: {answer.get('error')}")
        return answer.get("result")

    async def next_event(self, timeout: float) -> dict | None:
        """The next event message, or None after timeout. (Not `receive_json(timeout=...)`: aiohttp starts that
        timeout again after answering a ping, and Home Assistant pings every 55 s.)"""
        try:
            async with asyncio.timeout(timeout):
                message = await self._ws.receive_json()
        except TimeoutError:
            return None
        return message if message.get("type") == "event" else None

    async def wait(self, event_types: list[str], probe: Callable[[], Awaitable[tuple[bool, Any]]],
                   timeout: float, what: str) -> Any:
        """Subscribes to event_types, then runs probe (-> done, seen) now and after every event until done."""
        for event_type in event_types:
            await self.call({"type": "subscribe_events", "event_type": event_type})
        deadline = time.monotonic() + timeout
        done, seen = await probe()
        while not done:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessError(f"timed out after {timeout} s waiting for {what}; last seen: {json.dumps(seen)}")
            if await self.next_event(left) is not None:
                done, seen = await probe()
        return seen


async def mqtt_entities(ws: WS) -> list[dict]:
    """The extended registry entries (with device classes) of the MQTT platform's entities."""
    listed = await ws.call({"type": "config/entity_registry/list"})
    ids = [e["entity_id"] for e in listed if e.get("platform") == "mqtt"]
    if not ids:
        return []
    entries = await ws.call({"type": "config/entity_registry/get_entries", "entity_ids": ids})
    return [entry for entry in entries.values() if entry is not None]


async def mqtt_devices(ws: WS) -> list[dict]:
    """The devices of the MQTT config entry."""
    devices = await ws.call({"type": "config/device_registry/list"})
    entries = {e["entry_id"] for e in await ws.call({"type": "config_entries/get", "domain": "mqtt"})}
    return [d for d in devices if entries & set(d.get("config_entries", []))]


async def entity_state(ws: WS, entity_id: str) -> dict | None:
    return next((s for s in await ws.call({"type": "get_states"}) if s["entity_id"] == entity_id), None)


async def handle(ws: WS, request: dict) -> Any:
    command = request.get("command")
    timeout = float(request.get("timeout", 30))
    if command == "ws":
        return await ws.call(request["message"])
    if command == "snapshot":
        entities = await mqtt_entities(ws)
        ids = {e["entity_id"] for e in entities}
        states = [s for s in await ws.call({"type": "get_states"}) if s["entity_id"] in ids]
        return {"entities": entities, "devices": await mqtt_devices(ws), "states": states}
    if command == "call_service":
        message = {"type": "call_service", "domain": request["domain"], "service": request["service"],
                   "service_data": request.get("data") or {}}
        if request.get("entity_id"):
            message["target"] = {"entity_id": request["entity_id"]}
        return await ws.call(message)
    if command == "triggers":
        return await ws.call({"type": "device_automation/trigger/list", "device_id": request["device_id"]})
    if command == "wait_entities":
        wanted, gone = set(request["unique_ids"]), bool(request.get("gone"))

        async def probe() -> tuple[bool, Any]:
            listed = await ws.call({"type": "config/entity_registry/list"})
            present = {e["unique_id"]: e["entity_id"] for e in listed
                       if e.get("platform") == "mqtt" and e.get("unique_id") in wanted}
            done = not present if gone else set(present) == wanted
            return done, present if done or gone else {"present": present, "missing": sorted(wanted - set(present))}

        what = f"{'no' if gone else 'all'} of {sorted(wanted)} in the entity registry"
        return await ws.wait(["entity_registry_updated"], probe, timeout, what)
    if command == "wait_device_gone":
        identifier = request["identifier"]

        async def probe() -> tuple[bool, Any]:
            matching = [d for d in await mqtt_devices(ws) if ["mqtt", identifier] in d.get("identifiers", [])]
            return not matching, matching

        return await ws.wait(["device_registry_updated"], probe, timeout, f"device {identifier} removed")
    if command == "wait_state":
        entity_id, state, state_not = request["entity_id"], request.get("state"), request.get("state_not")
        attributes = request.get("attributes") or {}

        async def probe() -> tuple[bool, Any]:
            current = await entity_state(ws, entity_id)
            done = (current is not None and state in (None, current["state"]) and current["state"] != state_not
                    and all(current["attributes"].get(k) == v for k, v in attributes.items()))
            return done, current

        what = f"{entity_id} in state {state or 'any'}" + (f" but {state_not}" if state_not else "")
        what += f" with attributes {attributes}" if attributes else ""
        return await ws.wait(["state_changed"], probe, timeout, what)
    raise HarnessError(f"unknown command {command!r}")


async def answer(url: str, token: str, request: dict) -> dict:
    """One request on its own websocket connection (so a restarted Home Assistant is just reconnected)."""
    try:
        async with WS(url, token) as ws:
            return {"id": request.get("id"), "ok": True, "result": await handle(ws, request)}
    except Exception as error:  # noqa: BLE001  (every failure is an answer, never the end of `serve`)
        return {"id": request.get("id"), "ok": False, "error": f"{type(error).__name__}: {error}"}


async def serve(url: str, token: str) -> None:
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            response = {"id": None, "ok": False, "error": f"malformed request: {error}"}
        else:
            response = await answer(url, token, request)
        print(json.dumps(response, default=str, separators=(",", ":")), flush=True)


# --------------------------------------------------------------------------
# CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("init", help="create a fresh config dir")
    p.add_argument("--dir", required=True)
    p.add_argument("--mqtt-port", type=int, required=True)
    p.add_argument("--http-port", type=int, help="default: a free port")
    p = sub.add_parser("serve", help="answer JSON requests from stdin, one a line, until stdin ends")
    p.add_argument("--dir", required=True)
    p = sub.add_parser("request", help="answer one JSON request given as an argument")
    p.add_argument("--dir", required=True)
    p.add_argument("json")
    args = parser.parse_args(argv)
    try:
        if args.cmd == "init":
            print(json.dumps(init_config(args.dir, args.mqtt_port, args.http_port)))
            return 0
        meta = read_meta(args.dir)
        if args.cmd == "serve":
            asyncio.run(serve(meta["url"], meta["token"]))
            return 0
        response = asyncio.run(answer(meta["url"], meta["token"], json.loads(args.json)))
        print(json.dumps(response, indent=1, default=str))
        return 0 if response["ok"] else 1
    except HarnessError as error:
        print(json.dumps({"ok": False, "error": str(error)}))
        return 1


if __name__ == "__main__":
    sys.exit(main())
