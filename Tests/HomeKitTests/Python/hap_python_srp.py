"""SRP-6a of HAP-python (pyhap.hsrp.Server, the accessory's side) and an independent controller written here with
the same conventions, for SRPTests: reads a JSON object of hex strings on stdin, writes one on stdout.

In: I, p, s (username, password, salt), b (the accessory's secret), A and M1 (the Swift controller's public key and
proof, for HAP-python's server), a and B (a secret for the controller here, and the Swift accessory's public key).
Out: pyB (HAP-python's B as it sends it), pyM2 (its answer to A and M1, or null), pyK (its session key);
clientA, clientM1, clientM2, clientK (the controller here against B)."""

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
K = minimal(number(H(minimal(S))))
hNG = bytes(left ^ right for left, right in zip(H(minimal(N)), H(minimal(g))))
M1 = H(hNG, H(I), s, A, minimal(B), K)
out.update(clientA=A.hex(), clientM1=M1.hex(), clientM2=H(A, M1, K).hex(), clientK=K.hex())
json.dump(out, sys.stdout)
