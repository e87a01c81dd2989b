package dev.berth.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CodeFlare's {@code workload.codeflare.dev/v1beta2} AppWrapper, with the names Kueue's appwrapper integration
 * uses: the wrapped resources are {@code spec.components[i].template}; each component declares
 * {@code podSets[j]} with a {@code path} into its template (starting at {@code template}, with {@code .field}
 * and {@code [index]} steps, as the AppWrapper controller's getValueAtPath reads it) and {@code replicas}
 * (default 1). Kueue builds one pod set per declared pod set, in order, named by the AppWrapper and the
 * running index ({@link #podSetName}).
 */
public final class AppWrapperApi {
    public static final String GROUP = "workload.codeflare.dev";
    public static final String VERSION = "v1beta2";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "AppWrapper";
    public static final String PLURAL = "appwrappers";
    public static final String SINGULAR = "appwrapper";
    public static final List<String> SHORT_NAMES = List.of("aw");
    /** Kueue's integrations.frameworks name. */
    public static final String FRAMEWORK = "workload.codeflare.dev/appwrapper";
    /** The label the AppWrapper controller puts on every wrapped resource and pod. */
    public static final String APPWRAPPER_LABEL = "workload.codeflare.dev/appwrapper";
    /** Condition types of an AppWrapper's status. */
    public static final String QUOTA_RESERVED = "QuotaReserved";
    public static final String RESOURCES_DEPLOYED = "ResourcesDeployed";
    public static final String PODS_READY = "PodsReady";
    public static final String UNHEALTHY = "Unhealthy";
    public static final String PHASE_SUCCEEDED = "Succeeded";
    public static final String PHASE_FAILED = "Failed";
    public static final String PHASE_RUNNING = "Running";
    public static final String PHASE_SUSPENDED = "Suspended";

    private static final String ROOT = "template";

    private AppWrapperApi() {}

    /** The name of the AppWrapper's index-th pod set, counting across components in order. */
    public static String podSetName(String appWrapperName, int index) {
        return appWrapperName + "-" + index;
    }

    /**
     * The steps of a pod set path: a String for a field, an Integer for an array index, after the leading
     * {@code template}. Throws IllegalArgumentException saying what is wrong, in the AppWrapper controller's words.
     */
    public static List<Object> steps(String path) {
        if (path == null || !path.startsWith(ROOT)) throw new IllegalArgumentException("first element of the path must be 'template'");
        List<Object> steps = new ArrayList<>();
        String remaining = path.substring(ROOT.length());
        while (!remaining.isEmpty()) {
            if (remaining.startsWith("[")) {
                int end = remaining.indexOf(']');
                if (end < 0) throw new IllegalArgumentException("invalid array index '" + remaining + "'");
                try {
                    steps.add(Integer.parseInt(remaining.substring(1, end)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("invalid index expression '" + remaining.substring(1, end) + "'");
                }
                remaining = remaining.substring(end + 1);
            } else if (remaining.startsWith(".")) {
                remaining = remaining.substring(1);
                int end = remaining.length();
                int dot = remaining.indexOf('.');
                int bracket = remaining.indexOf('[');
                if (dot > 0) end = dot;
                if (bracket > 0 && bracket < end) end = bracket;
                String key = remaining.substring(0, end);
                if (key.isEmpty()) throw new IllegalArgumentException("empty field name");
                steps.add(key);
                remaining = remaining.substring(end);
            } else {
                throw new IllegalArgumentException("invalid path element '" + remaining + "'");
            }
        }
        return steps;
    }

    /** The map at the path inside a component (a map holding {@code template}), if the path leads to one. */
    public static Optional<Map<String, Object>> at(Map<String, Object> component, String path) {
        Object cursor = component.get(ROOT);
        List<Object> steps;
        try {
            steps = steps(path);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        for (Object step : steps) {
            if (step instanceof Integer index) {
                if (!(cursor instanceof List<?> list) || index < 0 || index >= list.size()) return Optional.empty();
                cursor = list.get(index);
            } else {
                if (!(cursor instanceof Map<?, ?> map)) return Optional.empty();
                cursor = map.get(step);
            }
        }
        if (!(cursor instanceof Map<?, ?> found)) return Optional.empty();
        @SuppressWarnings("unchecked")
        Map<String, Object> typed = (Map<String, Object>) found;
        return Optional.of(typed);
    }

    /** A component's declared pod sets' paths and replicas, in order. */
    public record PodSet(String path, int replicas) {}

    /** The declared pod sets of every component, in Kueue's order (component by component). */
    public static List<PodSet> podSets(Map<String, Object> appWrapper) {
        List<PodSet> podSets = new ArrayList<>();
        for (Map<String, Object> component : components(appWrapper)) {
            if (!(component.get("podSets") instanceof List<?> declared)) continue;
            for (Object entry : declared) {
                if (!(entry instanceof Map<?, ?> podSet)) continue;
                int replicas = podSet.get("replicas") instanceof Number n ? n.intValue() : 1;
                podSets.add(new PodSet(String.valueOf(podSet.get("path")), replicas));
            }
        }
        return podSets;
    }

    /** The components of an AppWrapper ({@code spec.components}), as maps. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> components(Map<String, Object> appWrapper) {
        List<Map<String, Object>> components = new ArrayList<>();
        if (appWrapper.get("spec") instanceof Map<?, ?> spec && spec.get("components") instanceof List<?> list) {
            for (Object component : list) if (component instanceof Map<?, ?> m) components.add((Map<String, Object>) m);
        }
        return components;
    }
}
