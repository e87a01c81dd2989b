package dev.berth.manager.scheduling;

import java.util.List;

/**
 * What preemption needs of the manager's scheduling settings (Kueue's Configuration.fairSharing):
 * whether fair sharing is on, and the strategies that choose its victims in order. The manager's
 * options implement it, so the planner does not depend on the package that owns them.
 */
public interface FairSharingSettings {
    boolean fairSharing();

    List<FairSharingStrategy> preemptionStrategies();
}
