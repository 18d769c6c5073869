#!/usr/bin/env python3
"""Writes tests/core/webauthn_vectors.h: WebAuthn registrations and assertions made with real keys.

Run once from the repository root (python3-cryptography is needed; the output is committed, the tests never
run this):
  python3 tests/core/tools/webauthn_vectors.py > tests/core/webauthn_vectors.h
  clang-format -i tests/core/webauthn_vectors.h
Each run makes new keys and new (randomised ECDSA) signatures; the tests assert only what holds for any run.
The CBOR here is written by hand in the canonical CTAP2 form authenticators use.
"""
import hashlib
import json
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

RP_ID = "example.com"
ORIGIN = "https://example.com"
CHALLENGE = bytes(range(1, 33))  # 32 bytes 01..20
AAGUID = bytes.fromhex("adce000235bcc60a648b0b25f1f05503")
UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80


def head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for info, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if n < 1 << (8 * struct.calcsize(fmt)):
            return bytes([major << 5 | info]) + struct.pack(fmt, n)


def cbor(v):
    if isinstance(v, bool):
        return b"\xf5" if v else b"\xf4"
    if isinstance(v, int):
        return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, bytes):
        return head(2, len(v)) + v
    if isinstance(v, str):
        return head(3, len(v.encode())) + v.encode()
    if isinstance(v, list):
        return head(4, len(v)) + b"".join(cbor(x) for x in v)
    if isinstance(v, dict):  # in insertion order: callers write canonical order
        return head(5, len(v)) + b"".join(cbor(k) + cbor(x) for k, x in v.items())
    raise TypeError(v)


def b64url(b):
    import base64
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def client_data(kind, challenge=CHALLENGE):
    # The member order and spacing browsers use.
    return json.dumps({"type": kind, "challenge": b64url(challenge), "origin": ORIGIN, "crossOrigin": False},
                      separators=(",", ":")).encode()


def auth_data(flags, counter, cred_id=None, cose=None, extensions=None):
    out = hashlib.sha256(RP_ID.encode()).digest() + bytes([flags]) + struct.pack(">I", counter)
    if cred_id is not None:
        out += AAGUID + struct.pack(">H", len(cred_id)) + cred_id + cose
    if extensions is not None:
        out += cbor(extensions)
    return out


ec_key = ec.generate_private_key(ec.SECP256R1())
nums = ec_key.public_key().public_numbers()
ec_cose = cbor({1: 2, 3: -7, -1: 1, -2: nums.x.to_bytes(32, "big"), -3: nums.y.to_bytes(32, "big")})
rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
rn = rsa_key.public_key().public_numbers()
rsa_cose = cbor({1: 3, 3: -257, -1: rn.n.to_bytes(256, "big"), -2: rn.e.to_bytes(3, "big")})


def sign_ec(data):
    return ec_key.sign(data, ec.ECDSA(hashes.SHA256()))


def sign_rsa(data):
    return rsa_key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def attestation(fmt, stmt, ad):
    return cbor({"fmt": fmt, "attStmt": stmt, "authData": ad})


ES_ID = bytes.fromhex("e5e5") + bytes(range(14))
RS_ID = bytes.fromhex("7575") + bytes(range(30))
create = client_data("webauthn.create")
get = client_data("webauthn.get")
vectors = {}
vectors["kCreateClientData"] = create
vectors["kGetClientData"] = get
vectors["kEs256Cose"] = ec_cose
vectors["kRs256Cose"] = rsa_cose
vectors["kEs256CredentialId"] = ES_ID
vectors["kRs256CredentialId"] = RS_ID
vectors["kAaguid"] = AAGUID

# Registrations, fmt "none" unless named.
ad = auth_data(UP | UV | BE | BS | AT, 0, ES_ID, ec_cose)
vectors["kEs256AttestationNone"] = attestation("none", {}, ad)
vectors["kRs256AttestationNone"] = attestation("none", {}, auth_data(UP | UV | AT, 0, RS_ID, rsa_cose))
vectors["kEs256AttestationNoUp"] = attestation("none", {}, auth_data(UV | AT, 0, ES_ID, ec_cose))
vectors["kEs256AttestationNoUv"] = attestation("none", {}, auth_data(UP | AT, 0, ES_ID, ec_cose))
vectors["kEs256AttestationNoAt"] = attestation("none", {}, auth_data(UP | UV, 0))
ext_ad = auth_data(UP | UV | AT | ED, 1, ES_ID, ec_cose, {"credProtect": 2})
vectors["kEs256AuthDataWithExtensions"] = ext_ad
vectors["kEs256AttestationWithExtensions"] = attestation("none", {}, ext_ad)
packed_ad = auth_data(UP | UV | AT, 0, ES_ID, ec_cose)
vectors["kEs256AttestationPackedSelf"] = attestation(
    "packed", {"alg": -7, "sig": sign_ec(packed_ad + hashlib.sha256(create).digest())}, packed_ad)
vectors["kEs256AttestationPackedBadSig"] = attestation(
    "packed", {"alg": -7, "sig": sign_ec(packed_ad + hashlib.sha256(get).digest())}, packed_ad)
vectors["kEs256AttestationPackedWrongAlg"] = attestation(
    "packed", {"alg": -257, "sig": sign_ec(packed_ad + hashlib.sha256(create).digest())}, packed_ad)
vectors["kEs256AttestationPackedX5c"] = attestation(
    "packed", {"alg": -7, "sig": sign_ec(packed_ad + hashlib.sha256(create).digest()), "x5c": [b"\x30\x00"]},
    packed_ad)
vectors["kEs256AttestationFidoU2f"] = attestation("fido-u2f", {"sig": b"\x30\x00", "x5c": [b"\x30\x00"]}, ad)
vectors["kEs256AttestationNoneWithStatement"] = attestation("none", {"alg": -7}, ad)

# Assertions: authenticatorData and the signature over authenticatorData || SHA-256(clientDataJSON).
get_hash = hashlib.sha256(get).digest()
for name, flags, counter, signer in (("kEs256Assertion", UP | UV, 5, sign_ec),
                                     ("kEs256AssertionUpOnly", UP, 7, sign_ec),
                                     ("kRs256AssertionCounter0", UP | UV | BE | BS, 0, sign_rsa)):
    a = auth_data(flags, counter)
    vectors[name + "AuthData"] = a
    vectors[name + "Signature"] = signer(a + get_hash)

print("// Generated by tests/core/tools/webauthn_vectors.py (see there). Do not edit.")
print("// Keys: one P-256 and one RSA-2048 key made for this file; the private halves were discarded.")
print("#pragma once\n\n#include <string_view>\n\nnamespace webauthn_vectors {\n")
print(f'inline constexpr std::string_view kRpId = "{RP_ID}";')
print(f'inline constexpr std::string_view kOrigin = "{ORIGIN}";')
print(f'inline constexpr std::string_view kChallengeHex =\n    "{CHALLENGE.hex()}";')
for name, value in vectors.items():
    if name.endswith("ClientData"):
        print(f'inline constexpr std::string_view {name} =\n    R"({value.decode()})";')
        continue
    h = value.hex()
    chunks = [h[i:i + 100] for i in range(0, len(h), 100)]
    print(f"inline constexpr std::string_view {name}Hex =")
    print("\n".join(f'    "{c}"' for c in chunks) + ";")
print("\n}  // namespace webauthn_vectors")
