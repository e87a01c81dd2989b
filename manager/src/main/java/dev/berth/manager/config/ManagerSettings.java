package dev.berth.manager.config;

import dev.berth.manager.core.PodsReadyPolicy;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.scheduling.FairSharingStrategy;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.objects.IntegrationFrameworks;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.DispatchConfig;
import dev.berth.manager.controller.JobIntegrationSettings;
import dev.berth.manager.store.ObjectStore;
import java.time.Clock;
import dev.berth.manager.controller.DispatchOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one place where a Kueue Configuration and the command line become the manager's settings.
 * Precedence: a flag, then its environment variable, then the file, then Berth's default. Kueue's
 * defaults apply only where Berth has the same setting with the same meaning; where they differ
 * (multiKueue.origin, dispatcherName) only a value the file sets changes Berth's behaviour.
 *
 * @param kueue the parsed file, empty when the manager started without --config
 */
public record ManagerSettings(SchedulerOptions scheduler, DispatchOptions dispatch, IntegrationFrameworks integrations,
                              JobIntegrationSettings jobIntegration, List<ConfigWarning> warnings, Optional<KueueConfiguration> kueue) {

    /**
     * What the command line says.
     *
     * @param fairSharing true when --fair-sharing was given (it can only turn fair sharing on)
     * @param retainFinished --retain-finished, or null
     * @param dispatch dispatch options from flags and environment ({@link DispatchConfig#NAMES})
     * @param waitForPodsReady --wait-for-pods-ready, or {@link PodsReadyPolicy#DISABLED} (the file decides)
     */
    public record Flags(boolean fairSharing, Duration retainFinished, Duration schedulingBatchWindow, Map<String, String> dispatch,
                        PodsReadyPolicy waitForPodsReady) {
        public static final Flags NONE = new Flags(false, null, SchedulerOptions.DEFAULT_BATCH_WINDOW, Map.of());

        public Flags(boolean fairSharing, Duration retainFinished, Duration schedulingBatchWindow, Map<String, String> dispatch) {
            this(fairSharing, retainFinished, schedulingBatchWindow, dispatch, PodsReadyPolicy.DISABLED);
        }
    }

    /** A manager with these settings over the store; the one way BerthMain and the tests build it. */
    public BerthManager newManager(ObjectStore store, Clock clock) {
        return new BerthManager(store, clock, scheduler, dispatch, jobIntegration, integrations);
    }

    /** Settings from the flags alone (no --config): Berth's behaviour as before, every served kind managed. */
    public static ManagerSettings from(Flags flags) {
        return build(null, flags);
    }

    public static ManagerSettings from(KueueConfiguration kueue, Flags flags) {
        return build(kueue, flags);
    }

    private static ManagerSettings build(KueueConfiguration kueue, Flags flags) {
        SchedulerOptions defaults = SchedulerOptions.DEFAULTS;
        boolean fairSharing = flags.fairSharing() || (kueue != null && kueue.fairSharing().enabled());
        List<FairSharingStrategy> strategies = kueue == null ? defaults.preemptionStrategies()
                : kueue.fairSharing().preemptionStrategies().stream().map(ManagerSettings::fairSharingStrategy).toList();
        Duration retainFinished = flags.retainFinished() != null ? flags.retainFinished()
                : kueue == null ? null : kueue.objectRetentionPolicies().afterFinished();
        Duration retainDeactivated = kueue == null ? null : kueue.objectRetentionPolicies().afterDeactivatedByKueue();
        SchedulerOptions scheduler = new SchedulerOptions(fairSharing, strategies, retainFinished, flags.schedulingBatchWindow())
                .withRetainDeactivatedFor(retainDeactivated)
                .withWaitForPodsReady(ConfiguredBehaviours.podsReady(kueue, flags.waitForPodsReady()))
                .withAdmissionFairSharing(ConfiguredBehaviours.admissionFairSharing(kueue))
                .withMetrics(ConfiguredBehaviours.metrics(kueue));
        DispatchOptions dispatch = dispatch(kueue, flags.dispatch());
        IntegrationFrameworks integrations = kueue == null ? IntegrationFrameworks.ALL_SERVED
                : new IntegrationFrameworks(kueue.integrations().frameworks().stream()
                        .filter(IntegrationFrameworks.SERVED::contains).collect(Collectors.toSet()));
        List<ConfigWarning> warnings = kueue == null ? List.of() : ConfigWarning.of(kueue);
        return new ManagerSettings(scheduler, dispatch, integrations, ConfiguredBehaviours.jobIntegration(kueue), warnings,
                Optional.ofNullable(kueue));
    }

    private static DispatchOptions dispatch(KueueConfiguration kueue, Map<String, String> fromCommandLine) {
        Map<String, String> values = new LinkedHashMap<>(fromCommandLine);
        if (kueue != null && kueue.isSet("multiKueue.workerLostTimeout")) {
            values.putIfAbsent("worker-lost-timeout", kueue.multiKueue().workerLostTimeout().toString());
        }
        if (kueue != null && kueue.isSet("multiKueue.origin")) values.putIfAbsent("manager-id", kueue.multiKueue().origin());
        DispatchOptions options;
        try {
            options = DispatchConfig.parse(values);
        } catch (IllegalArgumentException invalid) {
            boolean fromFile = kueue != null && kueue.isSet("multiKueue.workerLostTimeout") && !fromCommandLine.containsKey("worker-lost-timeout");
            if (fromFile && invalid.getMessage().contains("workerLostTimeout")) {
                throw new InvalidConfigurationException("multiKueue.workerLostTimeout", invalid.getMessage());
            }
            throw invalid;
        }
        if (kueue != null && kueue.isSet("multiKueue.dispatcherName")) {
            options = options.withPlacement(options.placement().withDefaultStrategy(dispatchStrategy(kueue.multiKueue().dispatcherName())));
        }
        if (kueue != null && kueue.multiKueue().incrementalStepSize() != null) {
            options = options.withPlacement(options.placement().withIncrementalStep(kueue.multiKueue().incrementalStepSize()));
        }
        return options;
    }

    /** Kueue's dispatcher names onto Berth's strategies; an external dispatcher falls back to Berth's Default. */
    static DispatchStrategy dispatchStrategy(String dispatcherName) {
        return switch (dispatcherName) {
            case KueueConfiguration.MultiKueue.ALL_AT_ONCE -> DispatchStrategy.ALL_AT_ONCE;
            case KueueConfiguration.MultiKueue.INCREMENTAL -> DispatchStrategy.INCREMENTAL;
            default -> DispatchStrategy.DEFAULT;
        };
    }

    private static FairSharingStrategy fairSharingStrategy(String wireName) {
        for (FairSharingStrategy strategy : FairSharingStrategy.values()) {
            if (strategy.wireName().equals(wireName)) return strategy;
        }
        throw new InvalidConfigurationException("fairSharing.preemptionStrategies", "unsupported value \"" + wireName + "\"");
    }
}
