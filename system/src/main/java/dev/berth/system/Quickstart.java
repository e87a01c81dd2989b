package dev.berth.system;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.FileObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The README's run command: the manager on http://localhost:8080 with an embedded file store, and
 * three virtual GPU clusters (A100 on-demand, H100, A100 spot), each in its own process with its
 * agent; the example queues and the MultiKueue setup are loaded.
 */
public final class Quickstart {
    private Quickstart() {}

    public static final List<WorkerClusterSpec> CLUSTERS = List.of(
            new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:2", false),
            new WorkerClusterSpec("h100", "h100:2x8,cpu:1", false),
            new WorkerClusterSpec("a100-spot", "a100:2x8", true));

    public static void main(String[] args) throws Exception {
        int port = 8080;
        Path home = Path.of(".berth");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--home" -> home = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: berth quickstart [--port 8080] [--home .berth]");
                    System.exit(2);
                }
            }
        }
        Path data = home.resolve("data");
        Files.createDirectories(data);
        List<Path> manifests = new ArrayList<>();
        for (String folder : List.of("examples/queues", "examples/multikueue")) {
            if (Files.isDirectory(Path.of(folder))) manifests.add(Path.of(folder));
        }
        BerthSystem system = BerthSystem.start(home.resolve("quickstart"), CLUSTERS,
                FileObjectStore.open(data, Clock.systemUTC()), SchedulerOptions.DEFAULTS, "127.0.0.1", port, manifests);
        Runtime.getRuntime().addShutdownHook(new Thread(system::close, "berth-quickstart-shutdown"));
        String url = "http://localhost:" + system.manager().port();
        System.out.println();
        System.out.println("Berth is running.");
        System.out.println("  API:        " + url);
        System.out.println("  kubeconfig: " + KubeconfigFile.write(home.resolve("kubeconfig"), url).toAbsolutePath());
        for (RunningWorker worker : system.workers()) {
            System.out.println("  cluster:    " + worker.name() + "  (API http://127.0.0.1:" + worker.cluster().port()
                    + ", kubeconfig " + worker.cluster().kubeconfig().toAbsolutePath() + ")");
        }
        System.out.println("  submit:     curl -s -X POST -H 'Content-Type: application/yaml' --data-binary @examples/jobs/sample-job.yaml "
                + url + "/apis/batch/v1/namespaces/team-a/jobs");
        System.out.println("  watch:      curl -s " + url + "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads");
        System.out.println("Stop with Ctrl-C.");
    }
}
