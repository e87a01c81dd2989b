package dev.berth.chaos;

/**
 * One environment that drills with the same setup take turns on, so the suite starts the seven JVM
 * containers once instead of once per drill. A drill borrows it ({@link #borrow}) and gives it back
 * healed ({@link #giveBack}); a drill that failed or left a site dead calls {@link #discard}, and the
 * next drill starts a fresh one. The last one is closed (logs saved) when the test JVM exits.
 */
final class SharedEnvironment {
    private static DrillEnvironment current;
    private static DrillSetup currentSetup;
    private static boolean hookInstalled;

    private SharedEnvironment() {}

    static synchronized DrillEnvironment borrow(String name, DrillSetup setup) {
        if (current != null && !setup.equals(currentSetup)) discard();
        if (current == null) {
            current = DrillEnvironment.start(name, setup);
            currentSetup = setup;
        }
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(SharedEnvironment::discard, "chaos-shared-environment-close"));
            hookInstalled = true;
        }
        current.awaitClustersActive();
        return current;
    }

    /** The drill healed what it broke: the next drill with the same setup reuses the environment. */
    static synchronized void giveBack(DrillEnvironment env) {
        if (env != current) env.close();
    }

    /** The environment is not fit for another drill (a site is gone, or the drill failed): close it now. */
    static synchronized void discard() {
        if (current == null) return;
        DrillEnvironment closing = current;
        current = null;
        currentSetup = null;
        closing.close();
    }
}
