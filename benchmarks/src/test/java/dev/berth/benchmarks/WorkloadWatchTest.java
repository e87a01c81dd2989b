package dev.berth.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class WorkloadWatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static WorkloadWatch.Event parse(String line) throws Exception {
        return WorkloadWatch.parse(JSON.readTree(line));
    }

    @Test
    void modifiedWorkloadCarriesIdentityRevisionAndConditions() throws Exception {
        WorkloadWatch.Event event = parse("""
                {"type":"MODIFIED","object":{"kind":"Workload","metadata":{"namespace":"ns-a","name":"small-3","resourceVersion":"42"},
                 "status":{"conditions":[{"type":"QuotaReserved","status":"True"},{"type":"Admitted","status":"True"}]}}}""");
        assertThat(event).isEqualTo(new WorkloadWatch.Event("MODIFIED", "ns-a", "small-3", "42", true, false, 0));
        assertThat(event.concernsWorkload()).isTrue();
    }

    @Test
    void evictedWorkloadIsNotAdmitted() throws Exception {
        WorkloadWatch.Event event = parse("""
                {"type":"MODIFIED","object":{"metadata":{"namespace":"n","name":"w","resourceVersion":"7"},
                 "status":{"conditions":[{"type":"Admitted","status":"False","reason":"Preempted"},{"type":"Finished","status":"True"}]}}}""");
        assertThat(event.admitted()).isFalse();
        assertThat(event.finished()).isTrue();
    }

    @Test
    void bookmarkMovesTheRevisionOnly() throws Exception {
        WorkloadWatch.Event event = parse("""
                {"type":"BOOKMARK","object":{"kind":"Workload","apiVersion":"kueue.x-k8s.io/v1beta2","metadata":{"resourceVersion":"900"}}}""");
        assertThat(event.resourceVersion()).isEqualTo("900");
        assertThat(event.concernsWorkload()).isFalse();
    }

    @Test
    void expiredErrorCarriesItsCode() throws Exception {
        WorkloadWatch.Event event = parse("""
                {"type":"ERROR","object":{"kind":"Status","status":"Failure","reason":"Expired","code":410}}""");
        assertThat(event.type()).isEqualTo("ERROR");
        assertThat(event.code()).isEqualTo(410);
    }
}
