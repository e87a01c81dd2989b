package dev.berth.manager.objects;

/** A WorkloadPriorityClass or PriorityClass as the scheduler needs it: its value, and whether it is the default. */
public record PriorityClassInfo(String name, int value, boolean globalDefault) {
}
