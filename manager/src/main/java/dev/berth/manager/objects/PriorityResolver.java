package dev.berth.manager.objects;

/**
 * Looks up the priority classes a workload may name. Implemented over the stored
 * WorkloadPriorityClasses and PriorityClasses; a name that does not exist gives null.
 */
public interface PriorityResolver {
    /** The value of a kueue.x-k8s.io WorkloadPriorityClass, or null if there is none of that name. */
    Integer workloadPriorityClass(String name);

    /** The value of a scheduling.k8s.io PriorityClass, or null if there is none of that name. */
    Integer priorityClass(String name);

    /** The PriorityClass marked globalDefault, or null if none is. */
    PriorityClassInfo defaultPriorityClass();
}
