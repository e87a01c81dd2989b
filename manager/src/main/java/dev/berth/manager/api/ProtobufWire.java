package dev.berth.manager.api;

import dev.berth.manager.objects.InvalidObjectException;

/** Reads the protobuf wire format from one message's bytes: tags, varints, fixed numbers and length-delimited slices. */
final class ProtobufWire {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private int at;
    private final int end;

    ProtobufWire(byte[] bytes, int from, int end) {
        this.bytes = bytes;
        this.at = from;
        this.end = end;
    }

    boolean atEnd() {
        return at >= end;
    }

    /** The next tag: field number in the high bits, wire type in the low three. */
    long tag(String where) {
        long tag = varint(where);
        if ((tag >>> 3) <= 0 || (tag >>> 3) > Integer.MAX_VALUE) throw malformed(where, "invalid field number " + (tag >>> 3));
        return tag;
    }

    long varint(String where) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= end) throw malformed(where, "truncated varint");
            byte b = bytes[at++];
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) return value;
        }
        throw malformed(where, "varint longer than 10 bytes");
    }

    long fixed(int size, String where) {
        if (end - at < size) throw malformed(where, "truncated fixed-size field");
        long value = 0;
        for (int i = 0; i < size; i++) value |= (long) (bytes[at++] & 0xff) << (8 * i);
        return value;
    }

    /** A length-delimited field as a reader over its bytes; this reader moves past it. */
    ProtobufWire slice(String where) {
        long length = varint(where);
        if (length < 0 || length > end - at) throw malformed(where, "length " + length + " runs past the end of the message");
        ProtobufWire inner = new ProtobufWire(bytes, at, at + (int) length);
        at += (int) length;
        return inner;
    }

    byte[] remaining() {
        return java.util.Arrays.copyOfRange(bytes, at, end);
    }

    void skip(int wireType, String where) {
        switch (wireType) {
            case VARINT -> varint(where);
            case FIXED64 -> fixed(8, where);
            case FIXED32 -> fixed(4, where);
            case LENGTH_DELIMITED -> slice(where);
            default -> throw malformed(where, "unsupported wire type " + wireType);
        }
    }

    static InvalidObjectException malformed(String where, String what) {
        return InvalidObjectException.badRequest("the protobuf body is malformed at " + (where.isEmpty() ? "the top level" : where) + ": " + what);
    }
}
