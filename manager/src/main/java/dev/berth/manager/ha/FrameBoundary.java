package dev.berth.manager.ha;

import io.vertx.core.buffer.Buffer;

/**
 * Where the events of a relayed stream end: a newline after each watch event (one JSON object a line, as
 * kube-apiserver writes them), a blank line after each server-sent event. It follows the bytes relayed so far, so a
 * relay knows whether it stands between two events, and where in the next chunk the current one ends.
 */
final class FrameBoundary {
    private final int newlines;
    /** How many newlines the bytes relayed so far end with; a stream that has not begun stands between two events. */
    private int trailing;

    private FrameBoundary(int newlines) {
        this.newlines = newlines;
        this.trailing = newlines;
    }

    static FrameBoundary watchEvents() {
        return new FrameBoundary(1);
    }

    static FrameBoundary serverSentEvents() {
        return new FrameBoundary(2);
    }

    /** True when the bytes relayed so far end an event (or none were relayed). */
    boolean atFrameEnd() {
        return trailing >= newlines;
    }

    /** Follows bytes relayed in full. */
    void relayed(Buffer data) {
        for (int i = 0; i < data.length(); i++) trailing = data.getByte(i) == '\n' ? trailing + 1 : 0;
    }

    /** How many of data's first bytes complete the event being relayed, or -1 when the event goes on past data. */
    int firstFrameEnd(Buffer data) {
        int run = trailing;
        for (int i = 0; i < data.length(); i++) {
            run = data.getByte(i) == '\n' ? run + 1 : 0;
            if (run >= newlines) return i + 1;
        }
        return -1;
    }
}
