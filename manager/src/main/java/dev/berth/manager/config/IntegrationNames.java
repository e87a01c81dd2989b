package dev.berth.manager.config;

import java.util.List;

/** Kueue's built-in integration framework names; integrations.frameworks may list only these. */
final class IntegrationNames {
    static final List<String> BUILT_IN = List.of("batch/job", "pod", "deployment", "statefulset",
            "leaderworkerset.x-k8s.io/leaderworkerset", "jobset.x-k8s.io/jobset", "kubeflow.org/mpijob", "kubeflow.org/paddlejob",
            "kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/xgboostjob", "kubeflow.org/jaxjob", "ray.io/rayjob",
            "ray.io/raycluster", "ray.io/rayservice", "workload.codeflare.dev/appwrapper", "trainer.kubeflow.org/trainjob",
            "sparkoperator.k8s.io/sparkapplication");

    private IntegrationNames() {}

    static void checkFramework(String path, String name) {
        if (!BUILT_IN.contains(name)) {
            throw new InvalidConfigurationException(path, "unsupported value \"" + name + "\": supported values: " + BUILT_IN);
        }
    }
}
