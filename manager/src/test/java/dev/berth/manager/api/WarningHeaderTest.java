package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The Warning header must stay a valid header value whatever a hostile body's field names hold. */
class WarningHeaderTest {
    @Test
    void controlCharactersInAFieldNameNeverReachTheHeader() {
        // ApiFuzzTest seed 39846852919285 found it: "spec.par\u007Fllelism" made Vert.x refuse the header, and the request hung.
        String header = ApiServer.warningHeader("unknown field \"spec.par\u007Fllel\nism\"");
        assertThat(header).isEqualTo("299 - \"unknown field \\\"spec.par?llel?ism\\\"\"");
        assertThat(header.chars().noneMatch(Character::isISOControl)).isTrue();
    }

    @Test
    void backslashesAndQuotesAreEscapedAsInAQuotedString() {
        assertThat(ApiServer.warningHeader("a\\b \"c\"")).isEqualTo("299 - \"a\\\\b \\\"c\\\"\"");
    }
}
