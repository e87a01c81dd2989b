package dev.berth.virtualcluster;

import java.time.Duration;

/**
 * A virtual cluster that acts as an autoscaling cluster: {@code --autoscaling <pool>:max=<nodes>[,delay=<seconds>][,fail=<n>]},
 * for example {@code h100:max=4,delay=2,fail=1}. The simulated provisioner grows the pool named by its alias up to
 * {@code max} nodes, {@code delay} after a ProvisioningRequest is accepted, and fails the first {@code fail} requests.
 */
public record ProvisionerProfile(String pool, int maxNodes, Duration delay, int failFirst) {
    public static final String PROVISIONING_CLASS = "check-capacity.autoscaling.x-k8s.io";

    public static ProvisionerProfile parse(String text) {
        String[] poolAndSettings = text.split(":", 2);
        if (poolAndSettings.length != 2 || poolAndSettings[0].isBlank()) throw invalid(text, "not <pool>:max=<nodes>[,delay=<s>][,fail=<n>]");
        int max = -1;
        Duration delay = Duration.ofSeconds(2);
        int fail = 0;
        for (String setting : poolAndSettings[1].split(",")) {
            String[] kv = setting.trim().split("=", 2);
            if (kv.length != 2) throw invalid(text, "setting '" + setting + "' is not key=value");
            try {
                switch (kv[0].trim()) {
                    case "max" -> max = Integer.parseInt(kv[1].trim());
                    case "delay" -> delay = Duration.ofMillis(Math.round(Double.parseDouble(kv[1].trim()) * 1000));
                    case "fail" -> fail = Integer.parseInt(kv[1].trim());
                    default -> throw invalid(text, "unknown setting '" + kv[0] + "' (known: max, delay, fail)");
                }
            } catch (NumberFormatException e) {
                throw invalid(text, "setting '" + setting + "' is not a number");
            }
        }
        if (max < 0) throw invalid(text, "max=<nodes> is required");
        if (fail < 0 || delay.isNegative()) throw invalid(text, "delay and fail must not be negative");
        return new ProvisionerProfile(poolAndSettings[0].trim().toLowerCase(), max, delay, fail);
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("invalid autoscaling profile '" + text + "': " + why);
    }
}
