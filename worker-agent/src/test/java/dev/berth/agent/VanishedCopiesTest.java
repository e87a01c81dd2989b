package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** An admitted attempt of which passes find nothing is declared vanished only after the grace, and forgotten when seen again. */
class VanishedCopiesTest {
    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");
    private final VanishedCopies vanished = new VanishedCopies();

    @Test
    void nothingFoundIsVanishedOnlyOnceTheGraceHasPassedSinceTheFirstPassThatFoundNothing() {
        assertThat(vanished.missing("ns/a1", T0)).as("first pass").isFalse();
        assertThat(vanished.missing("ns/a1", T0.plus(VanishedCopies.GRACE).minusMillis(1))).isFalse();
        assertThat(vanished.missing("ns/a1", T0.plus(VanishedCopies.GRACE))).isTrue();
    }

    @Test
    void aPassThatFindsSomethingStartsTheGraceOver() {
        vanished.missing("ns/a1", T0);
        vanished.present("ns/a1");

        assertThat(vanished.missing("ns/a1", T0.plus(VanishedCopies.GRACE))).isFalse();
        assertThat(vanished.missing("ns/a1", T0.plus(VanishedCopies.GRACE.multipliedBy(2)))).isTrue();
    }

    @Test
    void attemptsAreCountedApartAndForgottenWhenNoLongerCurrent() {
        vanished.missing("ns/a1", T0);
        vanished.missing("ns/a2", T0);
        vanished.retain(Set.of("ns/a2"));

        assertThat(vanished.missing("ns/a1", T0.plus(VanishedCopies.GRACE))).as("forgotten, so a first pass again").isFalse();
        assertThat(vanished.missing("ns/a2", T0.plus(VanishedCopies.GRACE))).isTrue();
    }
}
