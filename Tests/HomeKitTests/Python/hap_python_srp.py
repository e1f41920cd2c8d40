"""SRP-6a of HAP-python (pyhap.hsrp.Server, the accessory's side) and an independent controller written here with
the same conventions, for SRPTests: reads a JSON object of hex strings on stdin, writes one on stdout.

In: I, p, s (username, password, salt), b (the accessory's secret), A and M1 (the Swift controller's public key and
proof, for HAP-python's server), a and B (a secret for the controller here, and the Swift accessory's public key).
Out: pyB (HAP-python's B as it sends it), pyM2 (its answer to A and M1, or null), pyK (its session key); for
each convention the controller here computes against B (hap: HAP-python's, adk: Apple's HomeKit ADK's,
aio: aiohomekit's), <convention>A, <convention>M1, <convention>M2 and <convention>K."""

import hashlib
import json
import sys

from pyhap.hsrp import Server
from pyhap.params import get_srp_context
from pyhap.util import long_to_bytes

args = {key: bytes.fromhex(value) for key, value in json.load(sys.stdin).items()}
ctx = get_srp_context(3072, hashlib.sha512, 16)
server = Server(ctx, args["I"], args["p"], args["s"], b=int.from_bytes(args["b"], "big"))
out = {"pyB": long_to_bytes(server.B).hex()}
server.set_A(args["A"])
m2 = server.verify(args["M1"])
out["pyM2"] = m2.hex() if m2 is not None else None
out["pyK"] = long_to_bytes(server.get_session_key()).hex()


def H(*parts):
    return hashlib.sha512(b"".join(parts)).digest()


def number(data):
    return int.from_bytes(data, "big")


def minimal(n):
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


def pad(data):
    return data.rjust(384, b"\0")


N, g = ctx["N"], ctx["g"]
I, p, s = args["I"], args["p"], args["s"]
k = number(H(minimal(N), pad(minimal(g))))
x = number(H(s, H(I, b":", p)))
a = number(args["a"])
A = minimal(pow(g, a, N))
B = number(args["B"])
u = number(H(pad(A), pad(args["B"])))
S = pow((B - k * pow(g, x, N)) % N, a + u * x, N)
hNG = bytes(left ^ right for left, right in zip(H(minimal(N)), H(minimal(g))))
conventions = {
    # HAP-python: K = MIN(H(MIN(S))), A as sent (minimal here).
    "hap": (A, minimal(number(H(minimal(S))))),
    # HomeKit ADK: K = H(MIN(S)) whole, MIN(A).
    "adk": (A, H(minimal(S))),
    # aiohomekit: A sent padded, K = H(PAD(S)) whole.
    "aio": (pad(A), H(pad(minimal(S)))),
}
for name, (sentA, K) in conventions.items():
    M1 = H(hNG, H(I), s, sentA, args["B"], K)
    out.update({name + "A": sentA.hex(), name + "M1": M1.hex(), name + "M2": H(sentA, M1, K).hex(), name + "K": K.hex()})
json.dump(out, sys.stdout)
