package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class FrameBoundaryTest {
    @Test
    void aWatchStreamStandsBetweenEventsAfterEachLine() {
        FrameBoundary watch = FrameBoundary.watchEvents();
        assertThat(watch.atFrameEnd()).as("nothing relayed yet").isTrue();
        watch.relayed(Buffer.buffer("{\"type\":\"ADDED\"}\n{\"type\":"));
        assertThat(watch.atFrameEnd()).isFalse();
        assertThat(watch.firstFrameEnd(Buffer.buffer("\"MODIFIED\"}\n{\"ty"))).isEqualTo(12);
        assertThat(watch.firstFrameEnd(Buffer.buffer("\"MODIFIED\"}"))).isEqualTo(-1);
        watch.relayed(Buffer.buffer("\"MODIFIED\"}\n"));
        assertThat(watch.atFrameEnd()).isTrue();
        watch.relayed(Buffer.buffer(""));
        assertThat(watch.atFrameEnd()).as("an empty chunk changes nothing").isTrue();
    }

    @Test
    void aServerSentEventEndsAtABlankLineEvenWhenTheTwoNewlinesArriveApart() {
        FrameBoundary events = FrameBoundary.serverSentEvents();
        events.relayed(Buffer.buffer("event: snapshot\ndata: {}\n"));
        assertThat(events.atFrameEnd()).as("one newline ends a line, not the event").isFalse();
        assertThat(events.firstFrameEnd(Buffer.buffer("\n: heartbeat\n\n"))).isEqualTo(1);
        assertThat(events.firstFrameEnd(Buffer.buffer("data: more\n"))).as("a second data line continues the event").isEqualTo(-1);
        events.relayed(Buffer.buffer("\n"));
        assertThat(events.atFrameEnd()).isTrue();
        assertThat(events.firstFrameEnd(Buffer.buffer(": heartbeat\n\nevent: x"))).isEqualTo(13);
    }
}
