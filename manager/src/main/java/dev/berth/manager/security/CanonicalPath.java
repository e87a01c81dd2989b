package dev.berth.manager.security;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The one path a request is routed, authorized, audited and answered on. A request path is accepted
 * only when it is already in the form a router would normalise it to, so that no normalisation step
 * (removing dot segments, merging slashes, decoding escapes) can change what it names after the guard
 * has decided: no {@code .} or {@code ..} segment (literal or escaped), no empty segment ({@code //}),
 * no escaped {@code /} or backslash, no control character or NUL, only well-formed UTF-8 escapes.
 * The canonical path is then the percent-decoded path, as kube-apiserver's request info reads it. A
 * trailing slash is kept: it is part of the path, and the guard's allow list does not contain it.
 */
public final class CanonicalPath {
    /** How much of a refused path is repeated in a message or an audit line. */
    public static final int MAX_ECHO = 256;

    private CanonicalPath() {}

    /** The decoded path. @throws IllegalArgumentException naming what is wrong with the path */
    public static String of(String raw) {
        if (raw == null || raw.isEmpty() || raw.charAt(0) != '/') throw refused("it does not start with /");
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c >= 0x7f) throw refused("it contains a character that must be escaped");
        }
        String decoded = decode(raw);
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            if (c < 0x20 || c == 0x7f) throw refused("it contains a control character");
            if (c == '\\') throw refused("it contains a backslash");
        }
        String[] segments = decoded.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.equals(".") || segment.equals("..")) throw refused("it contains a dot segment");
            if (segment.isEmpty() && i < segments.length - 1) throw refused("it contains an empty segment (//)");
        }
        return decoded;
    }

    private static String decode(String raw) {
        if (raw.indexOf('%') < 0) return raw;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes.write(c);
                continue;
            }
            if (i + 2 >= raw.length()) throw refused("it ends in an incomplete escape");
            int high = Character.digit(raw.charAt(i + 1), 16);
            int low = Character.digit(raw.charAt(i + 2), 16);
            if (high < 0 || low < 0) throw refused("it contains an invalid escape");
            int value = high * 16 + low;
            if (value == '/') throw refused("it contains an escaped slash (%2F)");
            bytes.write(value);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw refused("its escapes are not valid UTF-8");
        }
    }

    private static IllegalArgumentException refused(String why) {
        return new IllegalArgumentException("the request path is not canonical: " + why);
    }

    /** At most {@link #MAX_ECHO} characters of s, for messages and audit lines. */
    public static String truncated(String s) {
        return s == null || s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO) + "...";
    }
}
