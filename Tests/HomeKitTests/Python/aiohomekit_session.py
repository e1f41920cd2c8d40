"""One aiohomekit session against a HAP server reached by address, without zeroconf.

Usage: aiohomekit_session.py HOST PORT SETUP_CODE DEVICE_ID

Pairs with the setup code, lists the accessories, reads and writes a characteristic (aid 2, iid 10 when it is
there), lists the pairings, removes its own pairing, and prints one JSON object with what it saw on stdout. Exits
non-zero with the exception on stderr when a step fails.
"""

import asyncio
import json
import sys

from aiohomekit.characteristic_cache import CharacteristicCacheMemory
from aiohomekit.controller.ip.discovery import IpDiscovery
from aiohomekit.model.categories import Categories
from aiohomekit.model.feature_flags import FeatureFlags
from aiohomekit.model.status_flags import StatusFlags
from aiohomekit.zeroconf import HomeKitService


class Controller:
    """What IpDiscovery and IpPairing use of aiohomekit's controller: the pairings and the characteristic cache."""

    def __init__(self):
        self.pairings = {}
        self.aliases = {}
        self.discoveries = {}
        self._char_cache = CharacteristicCacheMemory()


async def session(host: str, port: int, code: str, device_id: str) -> dict:
    service = HomeKitService(
        name="Thuis",
        id=device_id.lower(),
        model="Thuis",
        feature_flags=FeatureFlags(0),
        status_flags=StatusFlags.UNPAIRED,
        config_num=1,
        state_num=1,
        category=Categories.BRIDGE,
        protocol_version="1.1",
        type="_hap._tcp.local.",
        address=host,
        addresses=[host],
        port=port,
    )
    controller = Controller()
    discovery = IpDiscovery(controller, service)
    finish = await discovery.async_start_pairing("thuis")
    pairing = await finish(code)
    report = {"paired": pairing.pairing_data["AccessoryPairingID"]}
    try:
        accessories = await pairing.list_accessories_and_characteristics()
        report["accessories"] = len(accessories)
        ids = {(a["aid"], c["iid"]) for a in accessories for s in a["services"] for c in s["characteristics"]}
        if (2, 10) in ids:
            report["read"] = {f"{k[0]}.{k[1]}": v for k, v in (await pairing.get_characteristics([(2, 10)])).items()}
            report["write"] = {
                f"{k[0]}.{k[1]}": v for k, v in (await pairing.put_characteristics([(2, 10, True)])).items()
            }
            report["after_write"] = {
                f"{k[0]}.{k[1]}": v for k, v in (await pairing.get_characteristics([(2, 10)])).items()
            }
        report["pairings"] = [p["pairingId"] for p in await pairing.list_pairings()]
        report["removed"] = await pairing.remove_pairing(pairing.pairing_data["iOSPairingId"])
    finally:
        await pairing.close()
    return report


if __name__ == "__main__":
    host, port, code, device_id = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    print(json.dumps(asyncio.run(session(host, port, code, device_id)), default=str))
