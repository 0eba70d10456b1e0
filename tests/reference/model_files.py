"""Model files written by hand from their formats' definitions (numpy only), for the tests:

- safetensors (huggingface/safetensors README): an 8-byte little-endian header length, a JSON
  header {name: {"dtype", "shape", "data_offsets": [begin, end]}}, then the bytes;
- GGUF (ggml's docs/gguf.md), version 3: magic, version, tensor and metadata counts, typed
  key/values, tensor infos (name, dims innermost first, ggml type, offset), aligned data;
- quantised GGUF blocks (ggml-common.h): random valid blocks of Q8_0, Q4_0, Q4_K and Q6_K and
  their dequantisation, written here from the block layouts, not taken from attnviz.
"""
import json
import struct

import numpy as np

# ggml type numbers and GGUF value types
GGML = {'F32': 0, 'F16': 1, 'Q4_0': 2, 'Q8_0': 8, 'Q4_K': 12, 'Q6_K': 14, 'BF16': 30}
BLOCK = {'Q8_0': (32, 34), 'Q4_0': (32, 18), 'Q4_K': (256, 144), 'Q6_K': (256, 210)}
UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY = 4, 5, 6, 7, 8, 9


# --- float encodings ------------------------------------------------------------------------

def to_bf16_bits(values):
    """bfloat16 by truncation of float32 (a valid bfloat16 value; the reference uses it back)."""
    return (np.asarray(values, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def stored(values, dtype):
    """What a tensor of `dtype` holds for `values`, back as float64: the reference computes
    with exactly the weights the file carries."""
    values = np.asarray(values, dtype=np.float64)
    if dtype == 'F32':
        return values.astype(np.float32).astype(np.float64)
    if dtype == 'F16':
        return values.astype(np.float16).astype(np.float64)
    if dtype == 'BF16':
        return from_bf16_bits(to_bf16_bits(values)).reshape(values.shape)
    raise ValueError(dtype)


def float_bytes(values, dtype):
    values = np.asarray(values)
    if dtype == 'F32':
        return values.astype('<f4').tobytes()
    if dtype == 'F16':
        return values.astype('<f2').tobytes()
    if dtype == 'BF16':
        return to_bf16_bits(values).astype('<u2').tobytes()
    raise ValueError(dtype)


# --- safetensors ----------------------------------------------------------------------------

def write_safetensors(path, tensors):
    """tensors: {name: (float64 array, dtype)}; the header is padded to 8 bytes as the library does."""
    header, chunks, offset = {}, [], 0
    for name, (values, dtype) in tensors.items():
        data = float_bytes(values, dtype)
        header[name] = {'dtype': dtype, 'shape': list(np.shape(values)), 'data_offsets': [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    header['__metadata__'] = {'format': 'pt'}
    text = json.dumps(header).encode()
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text)
        for chunk in chunks:
            f.write(chunk)


# --- quantised blocks -----------------------------------------------------------------------

def f16(value):
    return np.float16(value)


def random_blocks(rng, kind, count):
    """`count` random but valid blocks of `kind` as bytes, with small scales so the weights stay
    near the size of a real model's."""
    out = bytearray()
    for _ in range(count):
        if kind == 'Q8_0':
            out += f16(rng.uniform(0.0005, 0.002)).tobytes() + rng.integers(-127, 128, 32, dtype=np.int8).tobytes()
        elif kind == 'Q4_0':
            out += f16(rng.uniform(0.005, 0.02)).tobytes() + rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        elif kind == 'Q4_K':
            out += f16(rng.uniform(0.0001, 0.0003)).tobytes() + f16(rng.uniform(0.0005, 0.0015)).tobytes()
            out += rng.integers(0, 256, 12, dtype=np.uint8).tobytes() + rng.integers(0, 256, 128, dtype=np.uint8).tobytes()
        elif kind == 'Q6_K':
            out += rng.integers(0, 256, 128, dtype=np.uint8).tobytes() + rng.integers(0, 256, 64, dtype=np.uint8).tobytes()
            out += rng.integers(-40, 41, 16, dtype=np.int8).tobytes() + f16(rng.uniform(0.00005, 0.0001)).tobytes()
        else:
            raise ValueError(kind)
    return bytes(out)


def half_at(block, offset):
    return float(np.frombuffer(block[offset:offset + 2], dtype='<f2')[0])


def dequantize_block(kind, block):
    """One block's values in float64, from ggml-common.h's layouts."""
    b = np.frombuffer(block, dtype=np.uint8)
    if kind == 'Q8_0':
        return half_at(block, 0) * np.frombuffer(block[2:34], dtype=np.int8).astype(np.float64)
    if kind == 'Q4_0':
        d, q = half_at(block, 0), b[2:18].astype(np.int64)
        return d * np.concatenate([(q & 15) - 8, (q >> 4) - 8]).astype(np.float64)
    if kind == 'Q4_K':
        d, dmin, scales, q = half_at(block, 0), half_at(block, 2), b[4:16].astype(np.int64), b[16:144].astype(np.int64)
        sc, mn = np.zeros(8, np.int64), np.zeros(8, np.int64)
        for j in range(8):  # six-bit scales and mins: the first four plain, the rest split
            if j < 4:
                sc[j], mn[j] = scales[j] & 63, scales[j + 4] & 63
            else:
                sc[j] = (scales[j + 4] & 15) | ((scales[j - 4] >> 6) << 4)
                mn[j] = (scales[j + 4] >> 4) | ((scales[j] >> 6) << 4)
        out = []
        for chunk in range(4):  # 32 bytes give 32 low nibbles (group 2c) and 32 high (2c + 1)
            bytes32 = q[32 * chunk:32 * chunk + 32]
            out.append(d * sc[2 * chunk] * (bytes32 & 15) - dmin * mn[2 * chunk])
            out.append(d * sc[2 * chunk + 1] * (bytes32 >> 4) - dmin * mn[2 * chunk + 1])
        return np.concatenate(out)
    if kind == 'Q6_K':
        ql, qh = b[0:128].astype(np.int64), b[128:192].astype(np.int64)
        sc = np.frombuffer(block[192:208], dtype=np.int8).astype(np.int64)
        d = half_at(block, 208)
        i = np.arange(128)
        quarter, l = i // 32, i % 32
        out = []
        for half in range(2):  # each 128 values: 64 bytes of low nibbles, 32 of high bits, 8 scales
            l4, h2, s = ql[64 * half:64 * half + 64], qh[32 * half:32 * half + 32], sc[8 * half:8 * half + 8]
            low = l4[l + 32 * (quarter & 1)]
            low = np.where(quarter < 2, low & 15, low >> 4)
            high = (h2[l] >> (2 * quarter)) & 3
            out.append(d * s[l // 16 + 2 * quarter] * ((low | (high << 4)) - 32))
        return np.concatenate(out).astype(np.float64)
    raise ValueError(kind)


def dequantize(kind, data, shape):
    elements, size = BLOCK[kind]
    count = len(data) // size
    values = np.concatenate([dequantize_block(kind, data[i * size:(i + 1) * size]) for i in range(count)])
    return values.reshape(shape)


# --- GGUF -----------------------------------------------------------------------------------

def gguf_string(text):
    data = text.encode() if isinstance(text, str) else text
    return struct.pack('<Q', len(data)) + data


def gguf_value(value):
    """A metadata value typed from Python: bool, int (uint32 or int32), float (float32), str, or
    a list of one of those."""
    if isinstance(value, bool):
        return struct.pack('<I', BOOL) + struct.pack('<B', value)
    if isinstance(value, int):
        return struct.pack('<I', UINT32 if value >= 0 else INT32) + struct.pack('<I' if value >= 0 else '<i', value)
    if isinstance(value, float):
        return struct.pack('<I', FLOAT32) + struct.pack('<f', value)
    if isinstance(value, str):
        return struct.pack('<I', STRING) + gguf_string(value)
    if isinstance(value, list):
        first = value[0]
        if isinstance(first, str):
            body = b''.join(gguf_string(v) for v in value)
            kind = STRING
        elif isinstance(first, float):
            body = struct.pack(f'<{len(value)}f', *value)
            kind = FLOAT32
        else:
            body = struct.pack(f'<{len(value)}i', *value)
            kind = INT32
        return struct.pack('<I', ARRAY) + struct.pack('<IQ', kind, len(value)) + body
    raise TypeError(type(value))


def write_gguf(path, metadata, tensors, alignment=32):
    """tensors: {name: (shape outermost first, ggml type name, bytes)}."""
    out = bytearray(b'GGUF' + struct.pack('<IQQ', 3, len(tensors), len(metadata)))
    for key, value in metadata.items():
        out += gguf_string(key) + gguf_value(value)
    offset, blobs = 0, []
    for name, (shape, kind, data) in tensors.items():
        dims = list(reversed(shape))
        out += gguf_string(name) + struct.pack('<I', len(dims)) + struct.pack(f'<{len(dims)}Q', *dims)
        out += struct.pack('<IQ', GGML[kind], offset)
        padded = data + b'\0' * (-len(data) % alignment)
        blobs.append(padded)
        offset += len(padded)
    out += b'\0' * (-len(out) % alignment)
    with open(path, 'wb') as f:
        f.write(out)
        for blob in blobs:
            f.write(blob)


def float_tensor(values, kind):
    """A GGUF tensor entry of float values, and the values the file really holds (float64)."""
    return (list(np.shape(values)), kind, float_bytes(values, kind)), stored(values, kind)


def quantised_tensor(rng, shape, kind):
    """A GGUF tensor of random valid blocks, and its values dequantised here (float64)."""
    elements, _ = BLOCK[kind]
    count = int(np.prod(shape)) // elements
    data = random_blocks(rng, kind, count)
    return (list(shape), kind, data), dequantize(kind, data, shape)
