package dev.berth.agent;

import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's view of its cluster: one fabric8 SharedIndexInformer each for the RemoteWorkloads, the pods and the
 * nodes in scope, and for every dispatched kind the cluster serves (objects labelled with {@link Labels#REMOTE_WORKLOAD}).
 * A pass reads their stores instead of listing, so only what changed is decoded.
 *
 * <p>{@link #ready()} is false until every informer has synced once (or its kind turned out not to be served): a pass
 * must not run on a cache that has not been filled. A kind whose informer is not watching (its watch broke and it is
 * relisting) is listed directly for that call, logged once per outage with cluster and kind. A kind the cluster did
 * not serve at start (HTTP 404: no JobSet CRD) is listed directly, which costs one 404; once such a list succeeds the
 * CRD has been installed and an informer is started for it.
 *
 * <p>The lists returned are the informers' own objects, shared with the caches: callers must not change them.
 */
public final class ClusterCaches implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterCaches.class);

    private final KubernetesClient client;
    private final AgentConfig config;
    private final Runnable onChange;
    private final Cache<RemoteWorkload> remoteWorkloads;
    private final Cache<Pod> pods;
    private final Cache<Node> nodes;
    private final List<Cache<GenericKubernetesResource>> owners = new ArrayList<>();
    private Map<String, OwnerMap> ownerMaps = new HashMap<>();

    /** @param onChange called from the informers' threads on every event that should trigger a pass */
    public ClusterCaches(KubernetesClient client, AgentConfig config, Runnable onChange) {
        this.client = client;
        this.config = config;
        this.onChange = onChange;
        Optional<String> scope = config.namespaceScope();
        var rws = client.resources(RemoteWorkload.class);
        var podOps = client.pods();
        this.remoteWorkloads = new Cache<>("RemoteWorkload", rw -> true,
                () -> scope.isPresent() ? rws.inNamespace(scope.get()).list().getItems() : rws.inAnyNamespace().list().getItems(),
                () -> scope.isPresent() ? rws.inNamespace(scope.get()).runnableInformer(0) : rws.inAnyNamespace().runnableInformer(0));
        // every pod counts for node usage; only the agent's own (labelled) pods trigger a pass, as the watch did before
        this.pods = new Cache<>("Pod", pod -> pod.getMetadata().getLabels() != null && pod.getMetadata().getLabels().containsKey(Labels.REMOTE_WORKLOAD),
                () -> scope.isPresent() ? podOps.inNamespace(scope.get()).list().getItems() : podOps.inAnyNamespace().list().getItems(),
                () -> scope.isPresent() ? podOps.inNamespace(scope.get()).runnableInformer(0) : podOps.inAnyNamespace().runnableInformer(0));
        this.nodes = new Cache<>("Node", node -> false, () -> client.nodes().list().getItems(), () -> client.nodes().runnableInformer(0));
        for (ResourceDefinitionContext context : AttemptObjects.OWNERS) {
            var kind = client.genericKubernetesResources(context);
            owners.add(new Cache<>(context.getKind() + "." + context.getGroup(), owner -> true,
                    () -> scope.isPresent() ? kind.inNamespace(scope.get()).withLabel(Labels.REMOTE_WORKLOAD).list().getItems()
                            : kind.inAnyNamespace().withLabel(Labels.REMOTE_WORKLOAD).list().getItems(),
                    () -> scope.isPresent() ? kind.inNamespace(scope.get()).withLabel(Labels.REMOTE_WORKLOAD).runnableInformer(0)
                            : kind.inAnyNamespace().withLabel(Labels.REMOTE_WORKLOAD).runnableInformer(0)));
        }
    }

    /** Starts every informer without waiting for it; {@link #ready()} tells when they have synced. */
    public void start() {
        remoteWorkloads.start();
        pods.start();
        nodes.start();
        owners.forEach(Cache::start);
    }

    /** True once every informer has synced once, or found its kind not served. */
    public boolean ready() {
        return remoteWorkloads.ready() && pods.ready() && nodes.ready() && owners.stream().allMatch(Cache::ready);
    }

    public List<RemoteWorkload> remoteWorkloads() {
        return remoteWorkloads.list();
    }

    /** Every pod in scope: all of them count for node usage. */
    public List<Pod> pods() {
        return pods.list();
    }

    public List<Node> nodes() {
        return nodes.list();
    }

    /**
     * Every object of a dispatched kind the agent created, as maps. A map is converted once per resourceVersion and
     * reused by later calls while the object is unchanged; it must not be modified.
     */
    public List<Map<String, Object>> owners() {
        List<Map<String, Object>> result = new ArrayList<>();
        Map<String, OwnerMap> next = new HashMap<>();
        for (Cache<GenericKubernetesResource> kind : owners) {
            for (GenericKubernetesResource owner : kind.list()) {
                String uid = owner.getMetadata().getUid();
                String version = owner.getMetadata().getResourceVersion();
                OwnerMap known = uid == null ? null : ownerMaps.get(uid);
                if (known == null || version == null || !version.equals(known.resourceVersion())) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> map = client.getKubernetesSerialization().convertValue(owner, Map.class);
                    known = new OwnerMap(version, map);
                }
                if (uid != null) next.put(uid, known);
                result.add(known.map());
            }
        }
        ownerMaps = next;
        return result;
    }

    private record OwnerMap(String resourceVersion, Map<String, Object> map) {}

    @Override
    public void close() {
        remoteWorkloads.close();
        pods.close();
        nodes.close();
        owners.forEach(Cache::close);
    }

    private static boolean isNotServed(Throwable t) {
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            if (cause instanceof KubernetesClientException e && e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) return true;
        }
        return false;
    }

    /** One kind: its informer, and the direct listing used while the informer is not watching. */
    private final class Cache<T extends HasMetadata> {
        private final String kind;
        private final Predicate<T> triggers;
        private final Supplier<List<T>> directList;
        private final Supplier<SharedIndexInformer<T>> newInformer;
        private volatile SharedIndexInformer<T> informer;
        private volatile boolean notServed;
        private boolean listingDirectly; // these two touched by the agent's thread only
        private boolean watched;

        Cache(String kind, Predicate<T> triggers, Supplier<List<T>> directList, Supplier<SharedIndexInformer<T>> newInformer) {
            this.kind = kind;
            this.triggers = triggers;
            this.directList = directList;
            this.newInformer = newInformer;
        }

        void start() {
            SharedIndexInformer<T> started = newInformer.get();
            started.addEventHandler(new ResourceEventHandler<T>() {
                @Override
                public void onAdd(T object) {
                    if (triggers.test(object)) onChange.run();
                }

                @Override
                public void onUpdate(T before, T after) {
                    if (triggers.test(after)) onChange.run();
                }

                @Override
                public void onDelete(T object, boolean finalStateUnknown) {
                    if (triggers.test(object)) onChange.run();
                }
            });
            // Before the first sync a 404 means the kind is not served (no CRD): stop and list directly. Anything
            // else is retried with the informer's backoff; a broken watch after the sync is relisted by the informer.
            started.exceptionHandler((isStarted, t) -> {
                if (!isStarted && isNotServed(t)) return false;
                LOG.atDebug().addKeyValue("cluster", config.name()).addKeyValue("kind", kind).addKeyValue("error", t.toString())
                        .log("informer error; retrying");
                return true;
            });
            informer = started;
            notServed = false;
            started.start().whenComplete((ignored, error) -> {
                if (error != null && isNotServed(error)) {
                    notServed = true;
                    started.close();
                    LOG.atInfo().addKeyValue("cluster", config.name()).addKeyValue("kind", kind)
                            .log("kind not served by the cluster; listed directly until it is");
                }
            });
        }

        boolean ready() {
            SharedIndexInformer<T> current = informer;
            return notServed || (current != null && current.hasSynced());
        }

        /** The informer's store while it watches; otherwise a direct listing (a 404 for a kind not served is empty). */
        List<T> list() {
            SharedIndexInformer<T> current = informer;
            if (!notServed && current != null && current.isWatching()) {
                watched = true;
                if (listingDirectly) {
                    listingDirectly = false;
                    LOG.atInfo().addKeyValue("cluster", config.name()).addKeyValue("kind", kind).log("informer watching again; reading its cache");
                }
                return current.getStore().list();
            }
            if (!notServed && !listingDirectly) {
                listingDirectly = true;
                // right after the first sync the watch may not be open yet: that is no outage
                (watched ? LOG.atWarn() : LOG.atInfo()).addKeyValue("cluster", config.name()).addKeyValue("kind", kind)
                        .log(watched ? "informer not watching; listing directly until it is"
                                : "informer synced, its watch not open yet; listing directly until it is");
            }
            try {
                List<T> listed = directList.get();
                if (notServed) start(); // the kind is served now (its CRD was installed): watch it from here on
                return listed;
            } catch (KubernetesClientException e) {
                if (notServed && isNotServed(e)) return List.of();
                throw e;
            }
        }

        void close() {
            SharedIndexInformer<T> current = informer;
            if (current != null) current.close();
        }
    }
}
