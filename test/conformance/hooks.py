"""schemathesis hooks for Vigil's conformance gate: strategies for the named string formats
Vigil's OpenAPI documents use where a pattern cannot say the whole rule.

Loaded through SCHEMATHESIS_HOOKS (test/conformance/schemathesis.ts sets it)."""

import base64

import schemathesis
from hypothesis import strategies as st

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58(data: bytes) -> str:
    number = int.from_bytes(data, "big")
    digits = ""
    while number:
        number, rest = divmod(number, 58)
        digits = BASE58[rest] + digits
    # Each leading zero byte is written as the digit of zero.
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + digits


def compact_u16(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def legacy_transaction(signature: bytes, payer: bytes, blockhash: bytes) -> str:
    """A signed legacy transaction with one signer and no instruction: well formed, pays nobody."""
    message = bytes([1, 0, 0]) + compact_u16(1) + payer + blockhash + compact_u16(0)
    return base64.b64encode(compact_u16(1) + signature + message).decode()


# A Solana public key: base58 of 32 bytes.
schemathesis.openapi.format("solana-address", st.binary(min_size=32, max_size=32).map(base58))

# A Solana exact payment's transaction: base64 of a signed transaction.
schemathesis.openapi.format(
    "solana-transaction",
    st.builds(
        legacy_transaction,
        st.binary(min_size=64, max_size=64),
        st.binary(min_size=32, max_size=32),
        st.binary(min_size=32, max_size=32),
    ),
)
