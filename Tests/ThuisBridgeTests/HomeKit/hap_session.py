"""A HomeKit controller session for the end-to-end tests, driven line by line over stdin/stdout.

It is aiohomekit (the library under Home Assistant's HomeKit Controller) talking to the bridge's HAP server. The
service description aiohomekit would get from zeroconf is built from what the real avahi-daemon resolved (the test
passes the TXT records it read with avahi-browse), so the address, port, id, c#, ff, sf and ci come from mDNS.

Each command line is JSON (`{"cmd": ...}`); each answer is one JSON line: `{"ok": true, ...}` or
`{"ok": false, "error": "..."}`. Events received at any time are printed as `{"event": {"aid.iid": value}}`.
Commands: pair (pin), accessories, get (ids: ["aid.iid"]), put (values: {"aid.iid": value}),
subscribe (ids), pairings, remove_pairing (id, default our own), quit.
"""

import asyncio
import json
import sys

from aiohomekit.characteristic_cache import CharacteristicCacheMemory
from aiohomekit.controller.ip.controller import IpController
from aiohomekit.controller.ip.discovery import IpDiscovery
from aiohomekit.model.categories import Categories
from aiohomekit.model.feature_flags import FeatureFlags
from aiohomekit.model.status_flags import StatusFlags
from aiohomekit.zeroconf import HomeKitService


def say(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


def ids(values):
    return [tuple(int(part) for part in text.split(".")) for text in values]


class NoZeroconf:
    """aiohomekit's controller wants an AsyncZeroconf; discovery here comes from avahi (see the module doc)."""

    zeroconf = None


async def main():
    host, port, txt = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    controller = IpController(char_cache=CharacteristicCacheMemory(), zeroconf_instance=NoZeroconf())
    description = HomeKitService(
        name=txt.get("name", "bridge"),
        id=txt["id"].lower(),
        model=txt.get("md", ""),
        feature_flags=FeatureFlags(int(txt.get("ff", 0))),
        status_flags=StatusFlags(int(txt.get("sf", 0))),
        config_num=int(txt.get("c#", 0)),
        state_num=int(txt.get("s#", 0)),
        category=Categories(int(txt.get("ci", 1))),
        protocol_version=txt.get("pv", "1.1"),
        type="_hap._tcp.local.",
        address=host,
        addresses=[host],
        port=port,
    )
    pairing = None
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin
    )
    say({"ready": True})
    while line := await reader.readline():
        try:
            request = json.loads(line)
            command = request["cmd"]
            if command == "pair":
                discovery = IpDiscovery(controller, description)
                finish = await discovery.async_start_pairing("bridge")
                pairing = await finish(request["pin"])
                say({"ok": True, "pairing_id": pairing.pairing_data["iOSPairingId"]})
            elif command == "accessories":
                accessories = await pairing.list_accessories_and_characteristics()
                say({"ok": True, "accessories": accessories})
            elif command == "get":
                values = await pairing.get_characteristics(ids(request["ids"]))
                say({"ok": True, "values": {f"{a}.{i}": v for (a, i), v in values.items()}})
            elif command == "put":
                writes = [(*ids([key])[0], value) for key, value in request["values"].items()]
                answer = await pairing.put_characteristics(writes)
                say({"ok": True, "statuses": {f"{a}.{i}": v for (a, i), v in answer.items()}})
            elif command == "subscribe":

                def on_event(event):
                    say({"event": {f"{a}.{i}": v.get("value") for (a, i), v in event.items()}})

                pairing.dispatcher_connect(on_event)
                answer = await pairing.subscribe(ids(request["ids"]))
                say({"ok": True, "statuses": {f"{a}.{i}": v for (a, i), v in (answer or {}).items()}})
            elif command == "pairings":
                say({"ok": True, "pairings": await pairing.list_pairings()})
            elif command == "remove_pairing":
                own = pairing.pairing_data["iOSPairingId"]
                await pairing.remove_pairing(request.get("id", own))
                say({"ok": True})
            elif command == "quit":
                if pairing is not None:
                    await pairing.close()
                say({"ok": True})
                return
            else:
                say({"ok": False, "error": f"unknown command {command}"})
        except Exception as error:  # every failure is an answer the test reads
            say({"ok": False, "error": f"{type(error).__name__}: {error}"})


asyncio.run(main())
