"""The payload signature (lib/sig/sl_sig.h), decoded by the tests' own code.

Written anew from the header's definition, not derived from the C: a
frame the generator signs must decode here, and a corrupted one must not.
"""
import struct

M64 = (1 << 64) - 1


def sig_check(w0, w1):
    """The signature's check, from lib/sig/sl_sig.h's definition (written anew here)."""
    base = ((w0 & ~0xFFFFFF) & M64) * 0x9E3779B97F4A7C15 & M64
    h = (w1 ^ base) * 0xFF51AFD7ED558CCD & M64
    return ((h >> 48) ^ (h >> 24)) & 0xFFFF


def sig_v2(b):
    """(stream, producer, seq, tsc40, run) of a 16-byte signature, or None."""
    w0, w1 = struct.unpack("<QQ", b)
    if w0 & 0xFF != 0xCE or (w0 >> 8) & 0xFFFF != sig_check(w0, w1):
        return None
    return ((w0 >> 32) & 0xFFFF, (w0 >> 48) & 0xFF, w1 & 0xFFFFFFFF,
            ((w0 >> 56) << 32) | (w1 >> 32), (w0 >> 24) & 0xFF)
