package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one path the guard, the audit and the API read: what is accepted, decoded, or refused. */
class CanonicalPathTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "/, /",
            "/healthz, /healthz",
            "/dashboard/, /dashboard/",
            "/dashboard/stream/, /dashboard/stream/",
            "/apis/batch/v1/namespaces/team-%61/jobs, /apis/batch/v1/namespaces/team-a/jobs",
            "/api/v1/namespaces/x/configmaps/system%3Aa, /api/v1/namespaces/x/configmaps/system:a",
            "/a/.b/c..d/..., /a/.b/c..d/...",
    })
    void acceptsAndDecodes(String raw, String canonical) {
        assertThat(CanonicalPath.of(raw)).isEqualTo(canonical);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "*", "apis", "/dashboard/../metrics", "/./metrics", "/a/.", "/a/..", "/%2e%2e/metrics",
            "/.%2E/metrics", "//metrics", "/a//b", "/dashboard%2F..%2Fmetrics", "/a%2fb", "/a\\b", "/a%5Cb", "/a%00", "/a%0a",
            "/a%", "/a%4", "/a%zz", "/a%C3%28", "/a b", "/caf\u00e9"})
    void refuses(String raw) {
        assertThatThrownBy(() -> CanonicalPath.of(raw)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not canonical");
    }
}
