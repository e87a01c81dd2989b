package dev.berth.manager.config;

import dev.berth.manager.config.KueueConfiguration.AdmissionFairSharing;
import dev.berth.manager.config.KueueConfiguration.FairSharing;
import dev.berth.manager.config.KueueConfiguration.Integrations;
import dev.berth.manager.config.KueueConfiguration.MultiKueue;
import dev.berth.manager.config.KueueConfiguration.ObjectRetentionPolicies;
import dev.berth.manager.config.KueueConfiguration.QueueVisibility;
import dev.berth.manager.config.KueueConfiguration.RequeuingStrategy;
import dev.berth.manager.config.KueueConfiguration.WaitForPodsReady;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a Kueue Configuration from a map (what YAML or JSON decode to), strictly and with Kueue's
 * defaults and validation (pkg/config/validation.go): an unknown field, a value of the wrong type or
 * a value Kueue refuses throws {@link InvalidConfigurationException} naming the field. The
 * scheduling sections are read here; the manager's own sections in {@link ManagerSectionsParser}.
 */
public final class KueueConfigurationParser {
    static final Duration DEFAULT_POD_READY_TIMEOUT = Duration.ofMinutes(30);
    static final Duration V1BETA1_POD_READY_TIMEOUT = Duration.ofMinutes(5);
    static final List<List<String>> FAIR_SHARING_STRATEGY_LISTS = List.of(List.of("LessThanOrEqualToFinalShare"),
            List.of("LessThanInitialShare"), List.of("LessThanOrEqualToFinalShare", "LessThanInitialShare"));

    private KueueConfigurationParser() {}

    public static KueueConfiguration parse(Map<String, Object> document) {
        Set<String> fieldsSet = new LinkedHashSet<>();
        ConfigSection root = ConfigSection.root(document == null ? Map.of() : document, fieldsSet);
        String apiVersion = root.string("apiVersion", null);
        if (!KueueConfiguration.V1BETA2.equals(apiVersion) && !KueueConfiguration.V1BETA1.equals(apiVersion)) {
            throw new InvalidConfigurationException("apiVersion", "expected " + KueueConfiguration.V1BETA2 + " (or "
                    + KueueConfiguration.V1BETA1 + "), got " + (apiVersion == null ? "nothing" : "\"" + apiVersion + "\""));
        }
        String kind = root.string("kind", null);
        if (!"Configuration".equals(kind)) {
            throw new InvalidConfigurationException("kind", "expected Configuration, got " + (kind == null ? "nothing" : "\"" + kind + "\""));
        }
        boolean v1beta1 = KueueConfiguration.V1BETA1.equals(apiVersion);
        String namespace = root.string("namespace", "kueue-system");
        boolean manageWithoutQueueName = root.bool("manageJobsWithoutQueueName", false);
        Map<String, Object> namespaceSelector = root.object("managedJobsNamespaceSelector");
        if (namespaceSelector == null) namespaceSelector = defaultNamespaceSelector(namespace);
        WaitForPodsReady podsReady = waitForPodsReady(root.section("waitForPodsReady"), v1beta1);
        Integrations integrations = integrations(root.section("integrations"), v1beta1);
        QueueVisibility visibility = v1beta1 ? queueVisibility(root.section("queueVisibility")) : null;
        MultiKueue multiKueue = multiKueue(root.section("multiKueue"));
        FairSharing fairSharing = fairSharing(root.section("fairSharing"), v1beta1);
        AdmissionFairSharing admissionFairSharing = admissionFairSharing(root.section("admissionFairSharing"));
        var resources = ResourcesParser.resources(root.section("resources"));
        ObjectRetentionPolicies retention = retention(root.section("objectRetentionPolicies"));
        Map<String, Boolean> featureGates = root.booleans("featureGates");
        var manager = ManagerSectionsParser.read(root, v1beta1);
        root.done();
        return new KueueConfiguration(apiVersion, namespace, manageWithoutQueueName, namespaceSelector, podsReady, integrations,
                visibility, multiKueue, fairSharing, admissionFairSharing, resources, retention, featureGates, manager.metrics(),
                manager.controllerManager(), manager.internalCertManagement(), manager.clientConnection(), manager.visibilityServer(),
                Set.copyOf(fieldsSet));
    }

    /** Kueue's default: every namespace but kube-system and Kueue's own. */
    static Map<String, Object> defaultNamespaceSelector(String namespace) {
        Map<String, Object> expression = new LinkedHashMap<>();
        expression.put("key", "kubernetes.io/metadata.name");
        expression.put("operator", "NotIn");
        expression.put("values", List.of("kube-system", namespace));
        return Map.of("matchExpressions", List.of(expression));
    }

    private static WaitForPodsReady waitForPodsReady(ConfigSection section, boolean v1beta1) {
        if (section == null) {
            Duration timeout = v1beta1 ? V1BETA1_POD_READY_TIMEOUT : DEFAULT_POD_READY_TIMEOUT;
            return new WaitForPodsReady(false, timeout, false, timeout, new RequeuingStrategy("Eviction", null, 60, 3600));
        }
        boolean enabled = section.bool("enable", !v1beta1);
        Duration timeout = section.duration("timeout", v1beta1 ? V1BETA1_POD_READY_TIMEOUT : DEFAULT_POD_READY_TIMEOUT);
        if (timeout.isZero()) timeout = v1beta1 ? V1BETA1_POD_READY_TIMEOUT : DEFAULT_POD_READY_TIMEOUT;
        boolean block = section.bool("blockAdmission", v1beta1 && enabled);
        Duration recovery = section.duration("recoveryTimeout", timeout);
        ConfigSection requeuing = section.section("requeuingStrategy");
        RequeuingStrategy strategy = new RequeuingStrategy("Eviction", null, 60, 3600);
        if (requeuing != null) {
            String timestamp = requeuing.string("timestamp", "Eviction");
            if (!timestamp.equals("Eviction") && !timestamp.equals("Creation")) {
                throw new InvalidConfigurationException(requeuing.path("timestamp"),
                        "unsupported value \"" + timestamp + "\": supported values: \"Creation\", \"Eviction\"");
            }
            strategy = new RequeuingStrategy(timestamp, requeuing.nonNegative("backoffLimitCount", null),
                    requeuing.nonNegative("backoffBaseSeconds", 60), requeuing.nonNegative("backoffMaxSeconds", 3600));
            requeuing.done();
        }
        section.done();
        return new WaitForPodsReady(enabled, timeout, block, recovery, strategy);
    }

    private static Integrations integrations(ConfigSection section, boolean v1beta1) {
        if (section == null) return new Integrations(List.of("batch/job"), List.of(), List.of(), null);
        List<String> frameworks = section.strings("frameworks");
        if (frameworks.isEmpty()) frameworks = List.of("batch/job");
        List<String> external = section.strings("externalFrameworks");
        List<String> labelKeys = section.strings("labelKeysToCopy");
        Map<String, Object> podOptions = v1beta1 ? section.object("podOptions") : null;
        section.done();
        for (int i = 0; i < frameworks.size(); i++) IntegrationNames.checkFramework(section.path("frameworks") + "[" + i + "]", frameworks.get(i));
        return new Integrations(frameworks, external, labelKeys, podOptions);
    }

    private static QueueVisibility queueVisibility(ConfigSection section) {
        if (section == null) return null;
        ConfigSection clusterQueues = section.section("clusterQueues");
        Integer maxCount = null;
        if (clusterQueues != null) {
            maxCount = clusterQueues.nonNegative("maxCount", null);
            clusterQueues.done();
        }
        Integer interval = section.nonNegative("updateIntervalSeconds", null);
        section.done();
        return new QueueVisibility(maxCount, interval);
    }

    private static MultiKueue multiKueue(ConfigSection section) {
        if (section == null) {
            return new MultiKueue(Duration.ofMinutes(1), "multikueue", Duration.ofMinutes(15), MultiKueue.ALL_AT_ONCE, List.of(), null, null);
        }
        Duration gcInterval = section.duration("gcInterval", Duration.ofMinutes(1));
        String origin = section.string("origin", "multikueue");
        if (origin.isEmpty()) origin = "multikueue";
        if (!origin.matches("([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]")) {
            throw new InvalidConfigurationException(section.path("origin"), "\"" + origin + "\" is not a valid label value");
        }
        Duration lost = section.duration("workerLostTimeout", Duration.ofMinutes(15));
        String dispatcher = section.string("dispatcherName", MultiKueue.ALL_AT_ONCE);
        List<String> external = section.sections("externalFrameworks").stream().map(f -> {
            String name = f.string("name", null);
            f.done();
            if (name == null || name.isBlank()) throw new InvalidConfigurationException(f.path("name"), "must be specified");
            return name;
        }).toList();
        Integer stepSize = null;
        ConfigSection incremental = section.section("incrementalDispatcherConfig");
        if (incremental != null) {
            stepSize = incremental.integer("stepSize", null);
            if (stepSize != null && stepSize < 1) throw new InvalidConfigurationException(incremental.path("stepSize"), "must be at least 1");
            incremental.done();
        }
        if (stepSize == null && MultiKueue.INCREMENTAL.equals(dispatcher)) stepSize = 3;
        Map<String, Object> clusterProfile = section.object("clusterProfile");
        section.done();
        return new MultiKueue(gcInterval, origin, lost, dispatcher, external, stepSize, clusterProfile);
    }

    private static FairSharing fairSharing(ConfigSection section, boolean v1beta1) {
        List<String> defaults = FAIR_SHARING_STRATEGY_LISTS.get(2);
        if (section == null) return new FairSharing(false, defaults);
        boolean hasEnable = section.has("enable");
        boolean enabled = section.bool("enable", !v1beta1);
        List<String> strategies = section.strings("preemptionStrategies");
        section.done();
        if (strategies.isEmpty()) {
            if (!v1beta1 && !hasEnable) throw new InvalidConfigurationException(section.path("preemptionStrategies"), "must be specified");
            strategies = defaults;
        }
        if (!FAIR_SHARING_STRATEGY_LISTS.contains(strategies)) {
            throw new InvalidConfigurationException(section.path("preemptionStrategies"), "unsupported value " + strategies
                    + ": supported lists: " + FAIR_SHARING_STRATEGY_LISTS);
        }
        return new FairSharing(enabled, strategies);
    }

    private static AdmissionFairSharing admissionFairSharing(ConfigSection section) {
        if (section == null) return null;
        Duration halfLife = section.duration("usageHalfLifeTime", Duration.ZERO);
        Duration sampling = section.duration("usageSamplingInterval", Duration.ofMinutes(5));
        if (sampling.isZero()) sampling = Duration.ofMinutes(5);
        Map<String, Double> weights = new LinkedHashMap<>();
        ConfigSection weightSection = section.section("resourceWeights");
        if (weightSection != null) {
            for (var entry : weightSection.keys()) {
                Double weight = weightSection.number(entry, null);
                if (weight == null) continue;
                if (weight < 0) throw new InvalidConfigurationException(weightSection.path(entry), "must be greater than or equal to 0, got " + weight);
                weights.put(entry, weight);
            }
            weightSection.done();
        }
        section.done();
        return new AdmissionFairSharing(halfLife, sampling, Map.copyOf(weights));
    }

    private static ObjectRetentionPolicies retention(ConfigSection section) {
        if (section == null) return new ObjectRetentionPolicies(null, null);
        ConfigSection workloads = section.section("workloads");
        section.done();
        if (workloads == null) return new ObjectRetentionPolicies(null, null);
        Duration afterFinished = workloads.duration("afterFinished", null);
        Duration afterDeactivated = workloads.duration("afterDeactivatedByKueue", null);
        workloads.done();
        return new ObjectRetentionPolicies(afterFinished, afterDeactivated);
    }
}
