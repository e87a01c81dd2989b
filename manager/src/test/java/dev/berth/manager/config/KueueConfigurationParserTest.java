package dev.berth.manager.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.config.KueueConfiguration.RequeuingStrategy;
import dev.berth.manager.config.KueueConfiguration.ResourceTransformation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Kueue's Configuration read strictly, with Kueue's defaults; every error names its field. */
class KueueConfigurationParserTest {
    static final String HEADER = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n";

    /** Every field of Kueue's v1beta2 Configuration, each set to a value that is not its default. */
    static final String EVERY_FIELD = HEADER + """
            namespace: kueue-ops
            manageJobsWithoutQueueName: true
            managedJobsNamespaceSelector:
              matchLabels: {team: gpu}
            waitForPodsReady:
              timeout: 7m
              blockAdmission: true
              recoveryTimeout: 3m
              requeuingStrategy: {timestamp: Creation, backoffLimitCount: 5, backoffBaseSeconds: 10, backoffMaxSeconds: 600}
            integrations:
              frameworks: [batch/job, pod, ray.io/rayjob]
              externalFrameworks: [Foo.v1.example.com]
              labelKeysToCopy: [team]
            multiKueue:
              gcInterval: 2m
              origin: berth-east
              workerLostTimeout: 20m
              dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental
              externalFrameworks: [{name: Bar.v1.example.com}]
              incrementalDispatcherConfig: {stepSize: 2}
              clusterProfile: {accessProviders: []}
            fairSharing:
              preemptionStrategies: [LessThanInitialShare]
            admissionFairSharing:
              usageHalfLifeTime: 168h
              usageSamplingInterval: 10m
              resourceWeights: {cpu: 0, example.com/gpu: 100}
            resources:
              excludeResourcePrefixes: [example.com/ignored]
              quotaCheckStrategy: IgnoreUndeclared
              transformations:
              - input: nvidia.com/mig-4g.5gb
                strategy: Replace
                outputs: {example.com/accelerator-memory: 5Gi, example.com/accelerator-gpc: 4}
              - input: example.com/other
              deviceClassMappings: [{name: example.com/gpu, deviceClassNames: [gpu.example.com]}]
            objectRetentionPolicies:
              workloads: {afterFinished: 1h, afterDeactivatedByKueue: 30m}
            featureGates: {TopologyAwareScheduling: true}
            metrics:
              bindAddress: :9443
              enableClusterQueueResources: true
              customLabels: [{name: team, sourceLabelKey: team}]
              localQueueMetrics: {enable: true, localQueueSelector: {matchLabels: {watched: "yes"}}}
            webhook: {port: 9444, host: 0.0.0.0, certDir: /certs}
            leaderElection: {leaderElect: true, resourceName: berth}
            health: {healthProbeBindAddress: ":8082", readinessEndpointName: readyz, livenessEndpointName: healthz}
            pprofBindAddress: :8083
            controller:
              groupKindConcurrency: {Job.batch: 5}
              cacheSyncTimeout: 3m
            tls: {minVersion: VersionTLS13}
            internalCertManagement: {enable: false, webhookServiceName: svc, webhookSecretName: secret}
            clientConnection: {qps: 50, burst: 100}
            visibilityServer: {bindAddress: 127.0.0.1, bindPort: 8084}
            """;

    static KueueConfiguration parse(String yaml) {
        return KueueConfigurationFile.fromYaml(yaml, "test");
    }

    @Test
    void everyFieldIsReadIntoItsTypedRecord() {
        KueueConfiguration c = parse(EVERY_FIELD);
        assertThat(c.namespace()).isEqualTo("kueue-ops");
        assertThat(c.manageJobsWithoutQueueName()).isTrue();
        assertThat(c.managedJobsNamespaceSelector()).isEqualTo(Map.of("matchLabels", Map.of("team", "gpu")));
        assertThat(c.waitForPodsReady()).isEqualTo(new KueueConfiguration.WaitForPodsReady(true, Duration.ofMinutes(7), true,
                Duration.ofMinutes(3), new RequeuingStrategy("Creation", 5, 10, 600)));
        assertThat(c.integrations().frameworks()).containsExactly("batch/job", "pod", "ray.io/rayjob");
        assertThat(c.integrations().externalFrameworks()).containsExactly("Foo.v1.example.com");
        assertThat(c.integrations().labelKeysToCopy()).containsExactly("team");
        assertThat(c.multiKueue()).isEqualTo(new KueueConfiguration.MultiKueue(Duration.ofMinutes(2), "berth-east", Duration.ofMinutes(20),
                KueueConfiguration.MultiKueue.INCREMENTAL, List.of("Bar.v1.example.com"), 2, Map.of("accessProviders", List.of())));
        assertThat(c.fairSharing()).isEqualTo(new KueueConfiguration.FairSharing(true, List.of("LessThanInitialShare")));
        assertThat(c.admissionFairSharing()).isEqualTo(new KueueConfiguration.AdmissionFairSharing(Duration.ofHours(168),
                Duration.ofMinutes(10), Map.of("cpu", 0.0, "example.com/gpu", 100.0)));
        assertThat(c.resources().excludeResourcePrefixes()).containsExactly("example.com/ignored");
        assertThat(c.resources().quotaCheckStrategy()).isEqualTo("IgnoreUndeclared");
        assertThat(c.resources().transformations()).containsExactly(
                new ResourceTransformation("nvidia.com/mig-4g.5gb", "Replace", null,
                        Map.of("example.com/accelerator-memory", "5Gi", "example.com/accelerator-gpc", "4")),
                new ResourceTransformation("example.com/other", "Retain", null, Map.of()));
        assertThat(c.resources().deviceClassMappings()).hasSize(1);
        assertThat(c.objectRetentionPolicies()).isEqualTo(new KueueConfiguration.ObjectRetentionPolicies(Duration.ofHours(1), Duration.ofMinutes(30)));
        assertThat(c.featureGates()).isEqualTo(Map.of("TopologyAwareScheduling", true));
        assertThat(c.metrics().bindAddress()).isEqualTo(":9443");
        assertThat(c.metrics().enableClusterQueueResources()).isTrue();
        assertThat(c.metrics().customLabels()).hasSize(1);
        assertThat(c.metrics().localQueueMetricsEnabled()).isTrue();
        assertThat(c.metrics().localQueueSelector()).isEqualTo(Map.of("matchLabels", Map.of("watched", "yes")));
        assertThat(c.controllerManager()).isEqualTo(new KueueConfiguration.ControllerManager(9444, "0.0.0.0", "/certs",
                Map.of("leaderElect", true, "resourceName", "berth"), ":8082", ":8083", Map.of("Job.batch", 5), Duration.ofMinutes(3),
                Map.of("minVersion", "VersionTLS13")));
        assertThat(c.internalCertManagement()).isEqualTo(new KueueConfiguration.InternalCertManagement(false, "svc", "secret"));
        assertThat(c.clientConnection()).isEqualTo(new KueueConfiguration.ClientConnection(50, 100));
        assertThat(c.visibilityServer()).isEqualTo(new KueueConfiguration.VisibilityServer("127.0.0.1", 8084));
    }

    @Test
    void anEmptyConfigurationHasKueuesDefaults() {
        KueueConfiguration c = parse(HEADER);
        assertThat(c.namespace()).isEqualTo("kueue-system");
        assertThat(c.manageJobsWithoutQueueName()).isFalse();
        assertThat(c.managedJobsNamespaceSelector()).isEqualTo(Map.of("matchExpressions", List.of(Map.of(
                "key", "kubernetes.io/metadata.name", "operator", "NotIn", "values", List.of("kube-system", "kueue-system")))));
        assertThat(c.waitForPodsReady().enabled()).isFalse();
        assertThat(c.integrations().frameworks()).containsExactly("batch/job");
        assertThat(c.multiKueue()).isEqualTo(new KueueConfiguration.MultiKueue(Duration.ofMinutes(1), "multikueue", Duration.ofMinutes(15),
                KueueConfiguration.MultiKueue.ALL_AT_ONCE, List.of(), null, null));
        assertThat(c.fairSharing().enabled()).isFalse();
        assertThat(c.admissionFairSharing()).isNull();
        assertThat(c.resources()).isEqualTo(KueueConfiguration.Resources.NONE);
        assertThat(c.objectRetentionPolicies()).isEqualTo(new KueueConfiguration.ObjectRetentionPolicies(null, null));
        assertThat(c.metrics().localQueueMetricsEnabled()).isTrue();
        assertThat(c.internalCertManagement().enable()).isTrue();
        assertThat(c.clientConnection()).isEqualTo(new KueueConfiguration.ClientConnection(300, 500));
        assertThat(c.visibilityServer().bindPort()).isEqualTo(8082);
        assertThat(c.fieldsSet()).containsExactlyInAnyOrder("apiVersion", "kind");
    }

    @Test
    void aPresentSectionTakesKueuesDefaultsForWhatItLeavesOut() {
        KueueConfiguration c = parse(HEADER + "waitForPodsReady: {}\nadmissionFairSharing: {usageHalfLifeTime: 1h}\n"
                + "multiKueue: {dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental}\n");
        assertThat(c.waitForPodsReady()).isEqualTo(new KueueConfiguration.WaitForPodsReady(true, Duration.ofMinutes(30), false,
                Duration.ofMinutes(30), new RequeuingStrategy("Eviction", null, 60, 3600)));
        assertThat(c.admissionFairSharing().usageSamplingInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.multiKueue().incrementalStepSize()).isEqualTo(3);
    }

    @Test
    void v1beta1IsReadWithItsEnableFieldsAndQueueVisibility() {
        KueueConfiguration c = parse("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"
                + "waitForPodsReady: {enable: true}\nfairSharing: {enable: true}\n"
                + "queueVisibility: {updateIntervalSeconds: 5, clusterQueues: {maxCount: 10}}\n"
                + "integrations: {frameworks: [batch/job], podOptions: {namespaceSelector: {}}}\n");
        assertThat(c.waitForPodsReady().enabled()).isTrue();
        assertThat(c.waitForPodsReady().timeout()).as("v1beta1's default").isEqualTo(Duration.ofMinutes(5));
        assertThat(c.waitForPodsReady().blockAdmission()).as("v1beta1 defaults blockAdmission to enable").isTrue();
        assertThat(c.fairSharing()).isEqualTo(new KueueConfiguration.FairSharing(true, List.of("LessThanOrEqualToFinalShare", "LessThanInitialShare")));
        assertThat(c.queueVisibility()).isEqualTo(new KueueConfiguration.QueueVisibility(10, 5));
        assertThat(parse("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\nfairSharing: {}\n").fairSharing().enabled())
                .as("v1beta1 fairSharing needs enable: true").isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a typo in a top-level field       | waitForPodReady: {timeout: 5m}                                 | waitForPodReady
            a typo in a nested field          | waitForPodsReady: {timout: 5m}                                 | waitForPodsReady.timout
            a typo in a list item             | resources: {transformations: [{input: a, strateg: Retain}]}   | resources.transformations[0].strateg
            a duration in words               | waitForPodsReady: {timeout: 5 minutes}                         | waitForPodsReady.timeout
            a negative timeout                | waitForPodsReady: {timeout: -1m}                               | waitForPodsReady.timeout
            a negative recovery timeout       | waitForPodsReady: {recoveryTimeout: -1s}                       | waitForPodsReady.recoveryTimeout
            an unknown requeuing timestamp    | waitForPodsReady: {requeuingStrategy: {timestamp: Later}}      | waitForPodsReady.requeuingStrategy.timestamp
            a negative backoff limit          | waitForPodsReady: {requeuingStrategy: {backoffLimitCount: -1}} | waitForPodsReady.requeuingStrategy.backoffLimitCount
            an unknown transformation         | resources: {transformations: [{input: a, strategy: Keep}]}    | resources.transformations[0].strategy
            a duplicate transformation input  | resources: {transformations: [{input: a}, {input: a}]}        | resources.transformations[1].input
            an unknown quota check strategy   | resources: {quotaCheckStrategy: Sometimes}                     | resources.quotaCheckStrategy
            strategies in an unsupported order | fairSharing: {preemptionStrategies: [LessThanInitialShare, LessThanOrEqualToFinalShare]} | fairSharing.preemptionStrategies
            v1beta2 fair sharing without strategies | fairSharing: {}                                          | fairSharing.preemptionStrategies
            an unknown framework              | integrations: {frameworks: [batch/job, batch/jobs]}            | integrations.frameworks[1]
            a negative worker-lost timeout    | multiKueue: {workerLostTimeout: -5m}                           | multiKueue.workerLostTimeout
            an origin that is no label value  | multiKueue: {origin: 'bad origin!'}                            | multiKueue.origin
            a step size of zero               | multiKueue: {incrementalDispatcherConfig: {stepSize: 0}}       | multiKueue.incrementalDispatcherConfig.stepSize
            an external framework without name | multiKueue: {externalFrameworks: [{nam: x}]}                  | multiKueue.externalFrameworks[0].nam
            a retention that is not a duration | objectRetentionPolicies: {workloads: {afterFinished: forever}} | objectRetentionPolicies.workloads.afterFinished
            a negative deactivation retention | objectRetentionPolicies: {workloads: {afterDeactivatedByKueue: -1h}} | objectRetentionPolicies.workloads.afterDeactivatedByKueue
            a negative resource weight        | admissionFairSharing: {usageHalfLifeTime: 1h, resourceWeights: {cpu: -1}} | admissionFairSharing.resourceWeights.cpu
            a string for a boolean            | manageJobsWithoutQueueName: 'yes'                             | manageJobsWithoutQueueName
            a string for a feature gate       | featureGates: {TopologyAwareScheduling: 'on'}                 | featureGates.TopologyAwareScheduling
            a list where an object belongs    | webhook: [9443]                                               | webhook
            queueVisibility in v1beta2        | queueVisibility: {updateIntervalSeconds: 5}                    | queueVisibility
            """)
    void anInvalidFieldIsRefusedByName(String what, String yaml, String field) {
        assertThatThrownBy(() -> parse(HEADER + yaml)).as(what).isInstanceOfSatisfying(InvalidConfigurationException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).startsWith(field + ": ");
        });
    }

    @Test
    void theApiVersionAndKindMustBeKueues() {
        assertThatThrownBy(() -> parse("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Configuration\n"))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.field()).isEqualTo("apiVersion"));
        assertThatThrownBy(() -> parse("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\n"))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.field()).isEqualTo("kind"));
        assertThatThrownBy(() -> parse("- not\n- an object\n")).isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("does not hold a Kueue Configuration");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"5m,PT5M", "1h30m,PT1H30M", "1.5h,PT1H30M", "300ms,PT0.3S", "0s,PT0S", "0,PT0S", "2h45m30.5s,PT2H45M30.5S", "90s,PT1M30S"})
    void goDurationsParseAsKueueWritesThem(String text, String iso) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource({"5", "m", "5 m", "5min", "1h-5m", "''"})
    void textThatIsNoGoDurationIsRefused(String text) {
        assertThat(GoDuration.parse(text)).isNull();
    }
}
