package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;

/** What the listing decisions ({@link ListingDecision}) need to know from admission and from the attempts already retired. */
public interface ListingFacts {

    /** The attempt id was retired (its last copy gone, or replaced): a copy of it is never adopted. */
    boolean retired(String attemptId);

    /** The workload holds quota, is not finished and has the dispatch check: a copy of it may be adopted. */
    boolean mayAdopt(WorkloadKey key);

    /** The workload's dispatch check is still Pending: no copy was ever admitted, so a missing one never ran. */
    boolean neverAdmittedRemotely(WorkloadKey key);
}
