package dev.berth.manager.objects;

/** A scheduling.k8s.io PriorityClass as priority resolution needs it. */
public record PriorityClassInfo(String name, int value, boolean globalDefault) {
}
