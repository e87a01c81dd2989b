package dev.berth.manager.config;

import static dev.berth.manager.config.KueueConfigurationParserTest.HEADER;
import static dev.berth.manager.config.KueueConfigurationParserTest.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.scheduling.FairSharingStrategy;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.objects.IntegrationFrameworks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The file and the flags become the manager's settings in one place; warnings name every unused field once. */
class ManagerSettingsTest {
    private static final ManagerSettings.Flags NONE = ManagerSettings.Flags.NONE;

    @Test
    void theFilesHonouredFieldsBecomeTheManagersSettings() {
        ManagerSettings s = ManagerSettings.from(parse(HEADER + """
                fairSharing: {preemptionStrategies: [LessThanInitialShare]}
                objectRetentionPolicies: {workloads: {afterFinished: 1h, afterDeactivatedByKueue: 30m}}
                multiKueue: {workerLostTimeout: 20m, origin: berth-east, dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental,
                             incrementalDispatcherConfig: {stepSize: 2}}
                integrations: {frameworks: [pod, jobset.x-k8s.io/jobset]}
                """), NONE);
        assertThat(s.scheduler().fairSharing()).isTrue();
        assertThat(s.scheduler().preemptionStrategies()).containsExactly(FairSharingStrategy.LESS_THAN_INITIAL_SHARE);
        assertThat(s.scheduler().retainFinishedWorkloadsFor()).isEqualTo(Duration.ofHours(1));
        assertThat(s.scheduler().deactivatedRetention().afterDeactivatedByKueue()).isEqualTo(Duration.ofMinutes(30));
        assertThat(s.dispatch().failover().workerLostTimeout()).isEqualTo(Duration.ofMinutes(20));
        assertThat(s.dispatch().managerId()).isEqualTo("berth-east");
        assertThat(s.dispatch().placement().defaultStrategy()).isEqualTo(DispatchStrategy.INCREMENTAL);
        assertThat(s.dispatch().placement().incrementalStep()).as("Kueue's incrementalDispatcherConfig.stepSize").isEqualTo(2);
        assertThat(s.dispatch().placement().strategyFor(null)).isEqualTo(DispatchStrategy.INCREMENTAL);
        assertThat(s.dispatch().placement().strategyFor("AllAtOnce")).as("a MultiKueueConfig's annotation still wins")
                .isEqualTo(DispatchStrategy.ALL_AT_ONCE);
        assertThat(s.integrations()).isEqualTo(new IntegrationFrameworks(Set.of("pod", "jobset.x-k8s.io/jobset")));
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void theBehaviourSectionsBecomeTheirOwnSettings() {
        ManagerSettings s = ManagerSettings.from(parse(HEADER + """
                namespace: queues-system
                manageJobsWithoutQueueName: true
                waitForPodsReady:
                  timeout: 7m
                  blockAdmission: true
                  requeuingStrategy: {timestamp: Creation, backoffLimitCount: 3}
                admissionFairSharing:
                  usageHalfLifeTime: 1h
                  usageSamplingInterval: 1m
                resources:
                  excludeResourcePrefixes: [example.com/]
                  transformations:
                  - input: nvidia.com/mig-1g.5gb
                    strategy: Replace
                    outputs: {example.com/accelerator-memory: 5Gi}
                """), NONE);

        var podsReady = s.scheduler().waitForPodsReady();
        assertThat(podsReady.enable()).isTrue();
        assertThat(podsReady.timeout()).isEqualTo(Duration.ofMinutes(7));
        assertThat(podsReady.blockAdmission()).isTrue();
        assertThat(podsReady.requeuingStrategy().timestamp()).isEqualTo(dev.berth.manager.core.PodsReadyPolicy.Timestamp.CREATION);
        assertThat(podsReady.requeuingStrategy().backoffLimitCount()).isEqualTo(3);
        assertThat(s.scheduler().admissionFairSharing().usageHalfLifeTime()).isEqualTo(Duration.ofHours(1));
        assertThat(s.jobIntegration().resources().excludeResourcePrefixes()).containsExactly("example.com/");
        assertThat(s.jobIntegration().resources().quotaRequests(java.util.Map.of("nvidia.com/mig-1g.5gb", 2000L)))
                .as("2 MIG slices count as 10Gi of accelerator memory, the input replaced")
                .containsOnlyKeys("example.com/accelerator-memory");
        assertThat(s.jobIntegration().managedJobs().manageJobsWithoutQueueName()).isTrue();
        assertThat(s.jobIntegration().managedJobs().selects(java.util.Map.of("kubernetes.io/metadata.name", "queues-system")))
                .as("Kueue's own namespace, as configured, is left alone").isFalse();
        assertThat(s.jobIntegration().managedJobs().selects(java.util.Map.of("kubernetes.io/metadata.name", "team-a"))).isTrue();
        assertThat(s.warnings()).extracting(ConfigWarning::field)
                .doesNotContain("waitForPodsReady", "admissionFairSharing", "resources.transformations", "manageJobsWithoutQueueName");
    }

    @Test
    void aWaitForPodsReadyFlagWinsOverTheFile() {
        var flag = dev.berth.manager.core.PodsReadyPolicy.enabled(Duration.ofMinutes(1));
        ManagerSettings s = ManagerSettings.from(parse(HEADER + "waitForPodsReady: {timeout: 7m}\n"),
                new ManagerSettings.Flags(false, null, Duration.ZERO, java.util.Map.of(), flag));
        assertThat(s.scheduler().waitForPodsReady().timeout()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void flagsOverrideTheFile() {
        KueueConfiguration file = parse(HEADER + "objectRetentionPolicies: {workloads: {afterFinished: 1h}}\n"
                + "multiKueue: {workerLostTimeout: 20m, origin: from-file}\n");
        ManagerSettings s = ManagerSettings.from(file, new ManagerSettings.Flags(true, Duration.ofMinutes(5), Duration.ZERO,
                Map.of("worker-lost-timeout", "30m", "manager-id", "from-flag")));
        assertThat(s.scheduler().fairSharing()).as("--fair-sharing").isTrue();
        assertThat(s.scheduler().retainFinishedWorkloadsFor()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.scheduler().schedulingBatchWindow()).isEqualTo(Duration.ZERO);
        assertThat(s.dispatch().failover().workerLostTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(s.dispatch().managerId()).isEqualTo("from-flag");
    }

    @Test
    void withoutAFileBerthKeepsItsOwnDefaults() {
        ManagerSettings s = ManagerSettings.from(NONE);
        assertThat(s.scheduler()).isEqualTo(SchedulerOptions.DEFAULTS);
        assertThat(s.integrations()).isEqualTo(IntegrationFrameworks.ALL_SERVED);
        assertThat(s.dispatch().placement().defaultStrategy()).isEqualTo(DispatchStrategy.DEFAULT);
        assertThat(s.kueue()).isEmpty();
    }

    @Test
    void aWorkerLostTimeoutNotLongerThanTheLeaseIsRefusedByItsField() {
        assertThatThrownBy(() -> ManagerSettings.from(parse(HEADER + "multiKueue: {workerLostTimeout: 30s}\n"), NONE))
                .isInstanceOfSatisfying(InvalidConfigurationException.class,
                        e -> assertThat(e.field()).isEqualTo("multiKueue.workerLostTimeout"))
                .hasMessageContaining("lease");
    }

    @Test
    void everyFieldBerthDoesNotActOnGetsOneWarningNamingIt() {
        List<ConfigWarning> warnings = ManagerSettings.from(parse(HEADER + """
                internalCertManagement: {enable: false}
                webhook: {port: 9444}
                featureGates: {TopologyAwareScheduling: true, ElasticJobsViaWorkloadSlices: false}
                integrations: {frameworks: [batch/job, ray.io/rayservice], labelKeysToCopy: [team]}
                multiKueue: {gcInterval: 5m, dispatcherName: example.com/my-dispatcher}
                fairSharing: {preemptionStrategies: [LessThanInitialShare]}
                """), NONE).warnings();
        assertThat(warnings).extracting(ConfigWarning::field).containsExactlyInAnyOrder(
                "internalCertManagement.enable", "webhook.port", "featureGates.TopologyAwareScheduling",
                "featureGates.ElasticJobsViaWorkloadSlices", "integrations.labelKeysToCopy", "integrations.frameworks[1]",
                "multiKueue.gcInterval", "multiKueue.dispatcherName");
        assertThat(warnings.stream().map(ConfigWarning::toString)).contains(
                "internalCertManagement.enable is not used by Berth: Berth serves no admission webhooks; TLS comes from the security flags");
        assertThat(warnings.stream().filter(w -> w.field().equals("integrations.frameworks[1]")).findFirst().orElseThrow().reason())
                .contains("ray.io/rayservice");
    }

    @Test
    void everyFieldOfKueuesConfigurationHasAnEntryInTheSupportTable() {
        KueueConfiguration every = parse(KueueConfigurationParserTest.EVERY_FIELD);
        assertThat(every.fieldsSet()).allSatisfy(field -> assertThat(FieldSupport.of(field)).as(field).isNotNull());
        assertThat(ConfigWarning.of(every)).noneMatch(w -> w.reason().equals("Berth has no rule for this field"));
    }

    @Test
    void kueuesOwnSampleConfigurationLoadsWithOnlyWarnings() throws Exception {
        Path sample = Path.of(ManagerSettingsTest.class.getResource("/kueue/controller_manager_config.yaml").toURI());
        ManagerSettings s = KueueConfigurationFile.settings(sample, NONE);
        assertThat(s.integrations().enabled()).containsExactlyInAnyOrder("batch/job", "jobset.x-k8s.io/jobset", "kubeflow.org/mpijob", "pod",
                "ray.io/rayjob", "ray.io/raycluster",
                "trainer.kubeflow.org/trainjob",
                "deployment", "statefulset", "leaderworkerset.x-k8s.io/leaderworkerset",
                "workload.codeflare.dev/appwrapper");
        assertThat(s.warnings()).extracting(ConfigWarning::field).contains("health.healthProbeBindAddress", "metrics.bindAddress",
                "webhook.port", "leaderElection", "controller.groupKindConcurrency", "clientConnection.qps", "clientConnection.burst");
        assertThat(s.warnings()).extracting(ConfigWarning::field).filteredOn(f -> f.startsWith("integrations.frameworks[")).hasSize(1);
    }
}
