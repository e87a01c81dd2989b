package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.CommitDecider.Copies;
import dev.berth.manager.dispatch.CommitDecider.Decision;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The commit step of two-phase dispatch, one row per rule; decided at T0 + {@code elapsed}. */
class CommitDeciderTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration RETRY = Duration.ofSeconds(10);
    private static final List<String> EAST_WEST_NORTH = List.of("east", "west", "north");

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("no copy reserved yet: nothing is committed, nothing withdrawn",
                        copies(Map.of(), null, null, false), 0, Decision.NONE),
                Arguments.of("the first copy to report Reserved is committed, the others are kept until the commit is confirmed",
                        copies(Map.of("west", T0, "north", T0.plusSeconds(2)), null, null, false), 3, new Decision("west", List.of())),
                Arguments.of("reserved in the same instant: dispatch (config) order breaks the tie",
                        copies(Map.of("north", T0, "west", T0), null, null, false), 0, new Decision("west", List.of())),
                Arguments.of("a commit sent and not answered yet is not sent again before the retry interval",
                        copies(Map.of("west", T0, "east", T0), "east", T0, false), 9, Decision.NONE),
                Arguments.of("an unanswered commit is sent again once the retry interval passed, to the same winner only",
                        copies(Map.of("west", T0, "east", T0.plusSeconds(1)), "east", T0, false), 10, new Decision("east", List.of())),
                Arguments.of("a winner chosen but not sent yet (a new leader recovering it) is committed now",
                        copies(Map.of("west", T0), "east", null, false), 0, new Decision("east", List.of())),
                Arguments.of("a winner that refused the commit was dropped by the executor: the next reservation is committed",
                        new Copies(List.of("west", "north"), Map.of("north", T0.plusSeconds(4)), null, null, false), 5, new Decision("north", List.of())),
                Arguments.of("a confirmed commit withdraws every other copy, reserved or not, and commits nothing more",
                        copies(Map.of("west", T0, "east", T0), "west", T0, true), 1, new Decision(null, List.of("east", "north"))),
                Arguments.of("a reservation reported after the commit was confirmed is withdrawn, never committed",
                        copies(Map.of("east", T0, "north", T0.plusSeconds(30)), "east", T0, true), 30, new Decision(null, List.of("west", "north"))));
    }

    private static Copies copies(Map<String, Instant> reserved, String committedTo, Instant sentAt, boolean confirmed) {
        return new Copies(EAST_WEST_NORTH, reserved, committedTo, sentAt, confirmed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(String behaviour, Copies copies, int elapsedSeconds, Decision expected) {
        assertThat(new CommitDecider(RETRY).decide(copies, T0.plusSeconds(elapsedSeconds))).isEqualTo(expected);
    }
}
