package dev.berth.manager.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Fluent builders of the API objects a test submits, in the spirit of Kueue's pkg/util/testing
 * wrappers: {@code clusterQueue("cq").cohort("c").quota("a100", "nvidia.com/gpu", "8")},
 * {@code localQueue("ns", "lq").clusterQueue("cq")}, {@code job("ns", "j").queue("lq").request("nvidia.com/gpu", "2")}.
 * Each builds the JSON a user would send and knows the collection it is created in, so
 * {@code client.create(...)} takes it directly. (For the scheduler's own records see {@link Fixtures}.)
 */
public final class KueueObjects {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE_API = "kueue.x-k8s.io/v1beta2";
    public static final String QUEUE_NAME_LABEL = "kueue.x-k8s.io/queue-name";

    private KueueObjects() {}

    /** An object a test can create: its JSON and the path of its collection. */
    public interface KubeObject {
        ObjectNode json();

        String collectionPath();

        default String toJson() {
            return json().toString();
        }
    }

    public static ResourceFlavorBuilder resourceFlavor(String name) {
        return new ResourceFlavorBuilder(name);
    }

    public static ClusterQueueBuilder clusterQueue(String name) {
        return new ClusterQueueBuilder(name);
    }

    public static LocalQueueBuilder localQueue(String namespace, String name) {
        return new LocalQueueBuilder(namespace, name);
    }

    public static JobBuilder job(String namespace, String name) {
        return new JobBuilder(namespace, name);
    }

    public static KubeObject namespace(String name) {
        return ready(object("v1", "Namespace", name), "/api/v1/namespaces");
    }

    public static KubeObject workloadPriorityClass(String name, int value) {
        return ready(object(KUEUE_API, "WorkloadPriorityClass", name).put("value", value), ManagerClient.KUEUE + "/workloadpriorityclasses");
    }

    /** An object built elsewhere, created in collectionPath. */
    static KubeObject ready(ObjectNode object, String collectionPath) {
        return new KubeObject() {
            @Override
            public ObjectNode json() {
                return object.deepCopy();
            }

            @Override
            public String collectionPath() {
                return collectionPath;
            }
        };
    }

    static ObjectNode object(String apiVersion, String kind, String name) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
        object.putObject("metadata").put("name", name);
        return object;
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.has(field) ? (ObjectNode) parent.get(field) : parent.putObject(field);
    }

    public static final class ResourceFlavorBuilder implements KubeObject {
        private final ObjectNode object;

        ResourceFlavorBuilder(String name) {
            object = object(KUEUE_API, "ResourceFlavor", name);
            object.putObject("spec");
        }

        public ResourceFlavorBuilder nodeLabel(String key, String value) {
            child((ObjectNode) object.path("spec"), "nodeLabels").put(key, value);
            return this;
        }

        @Override
        public ObjectNode json() {
            return object.deepCopy();
        }

        @Override
        public String collectionPath() {
            return ManagerClient.KUEUE + "/resourceflavors";
        }
    }

    /** A ClusterQueue with one resource group covering every resource any of its flavors lists (absent ones at 0). */
    public static final class ClusterQueueBuilder implements KubeObject {
        private final String name;
        private String cohort;
        private final Map<String, Map<String, ObjectNode>> quotas = new LinkedHashMap<>();
        private final Set<String> resources = new LinkedHashSet<>();
        private ObjectNode preemption;
        private String queueingStrategy;
        private final ArrayNode admissionChecks = JSON.createArrayNode();

        ClusterQueueBuilder(String name) {
            this.name = name;
        }

        public ClusterQueueBuilder cohort(String value) {
            this.cohort = value;
            return this;
        }

        /** nominalQuota of resource in flavor (a quantity: "8", "500m", "16Gi"). */
        public ClusterQueueBuilder quota(String flavor, String resource, String nominal) {
            quotaOf(flavor, resource).put("nominalQuota", nominal);
            return this;
        }

        public ClusterQueueBuilder quota(String flavor, String resource, int nominal) {
            return quota(flavor, resource, Integer.toString(nominal));
        }

        public ClusterQueueBuilder borrowingLimit(String flavor, String resource, String limit) {
            quotaOf(flavor, resource).put("borrowingLimit", limit);
            return this;
        }

        public ClusterQueueBuilder lendingLimit(String flavor, String resource, String limit) {
            quotaOf(flavor, resource).put("lendingLimit", limit);
            return this;
        }

        /** spec.preemption: withinClusterQueue and reclaimWithinCohort (Never, LowerPriority, Any). */
        public ClusterQueueBuilder preemption(String withinClusterQueue, String reclaimWithinCohort) {
            preemption = JSON.createObjectNode().put("withinClusterQueue", withinClusterQueue)
                    .put("reclaimWithinCohort", reclaimWithinCohort);
            return this;
        }

        public ClusterQueueBuilder queueingStrategy(String value) {
            this.queueingStrategy = value;
            return this;
        }

        /** An entry of spec.admissionChecksStrategy.admissionChecks (for every flavor). */
        public ClusterQueueBuilder admissionCheck(String checkName) {
            admissionChecks.addObject().put("name", checkName);
            return this;
        }

        private ObjectNode quotaOf(String flavor, String resource) {
            resources.add(resource);
            return quotas.computeIfAbsent(flavor, f -> new LinkedHashMap<>())
                    .computeIfAbsent(resource, r -> JSON.createObjectNode().put("name", r));
        }

        @Override
        public ObjectNode json() {
            ObjectNode object = object(KUEUE_API, "ClusterQueue", name);
            ObjectNode spec = object.putObject("spec");
            if (cohort != null) spec.put("cohortName", cohort);
            spec.putObject("namespaceSelector");
            if (queueingStrategy != null) spec.put("queueingStrategy", queueingStrategy);
            if (preemption != null) spec.set("preemption", preemption.deepCopy());
            if (!admissionChecks.isEmpty()) spec.putObject("admissionChecksStrategy").set("admissionChecks", admissionChecks.deepCopy());
            if (quotas.isEmpty()) return object;
            ObjectNode group = spec.putArray("resourceGroups").addObject();
            resources.forEach(group.putArray("coveredResources")::add);
            ArrayNode flavors = group.putArray("flavors");
            quotas.forEach((flavor, byResource) -> {
                ObjectNode entry = flavors.addObject().put("name", flavor);
                ArrayNode list = entry.putArray("resources");
                for (String resource : resources) {
                    ObjectNode quota = byResource.get(resource);
                    list.add(quota != null ? quota.deepCopy() : JSON.createObjectNode().put("name", resource).put("nominalQuota", "0"));
                }
            });
            return object;
        }

        @Override
        public String collectionPath() {
            return ManagerClient.KUEUE + "/clusterqueues";
        }
    }

    public static final class LocalQueueBuilder implements KubeObject {
        private final String namespace;
        private final ObjectNode object;

        LocalQueueBuilder(String namespace, String name) {
            this.namespace = namespace;
            object = object(KUEUE_API, "LocalQueue", name);
            ((ObjectNode) object.path("metadata")).put("namespace", namespace);
            object.putObject("spec");
        }

        public LocalQueueBuilder clusterQueue(String name) {
            ((ObjectNode) object.path("spec")).put("clusterQueue", name);
            return this;
        }

        @Override
        public ObjectNode json() {
            return object.deepCopy();
        }

        @Override
        public String collectionPath() {
            return ManagerClient.KUEUE + "/namespaces/" + namespace + "/localqueues";
        }
    }

    /** A suspended batch/v1 Job of one container, as Kueue users submit it. */
    public static final class JobBuilder implements KubeObject {
        private final String namespace;
        private final String name;
        private String queue;
        private int parallelism = 1;
        private String image = "registry.k8s.io/e2e-test-images/agnhost:2.53";
        private final Map<String, String> requests = new LinkedHashMap<>();
        private final Map<String, String> labels = new LinkedHashMap<>();
        private final Map<String, String> annotations = new LinkedHashMap<>();

        JobBuilder(String namespace, String name) {
            this.namespace = namespace;
            this.name = name;
        }

        /** The LocalQueue, through the kueue.x-k8s.io/queue-name label. */
        public JobBuilder queue(String localQueue) {
            this.queue = localQueue;
            return this;
        }

        /** Per-pod request (and, for extended resources such as GPUs, the equal limit). */
        public JobBuilder request(String resource, String quantity) {
            requests.put(resource, quantity);
            return this;
        }

        public JobBuilder request(String resource, int quantity) {
            return request(resource, Integer.toString(quantity));
        }

        /** parallelism and completions. */
        public JobBuilder parallelism(int pods) {
            this.parallelism = pods;
            return this;
        }

        public JobBuilder image(String value) {
            this.image = value;
            return this;
        }

        public JobBuilder label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        public JobBuilder annotation(String key, String value) {
            annotations.put(key, value);
            return this;
        }

        @Override
        public ObjectNode json() {
            ObjectNode object = object("batch/v1", "Job", name);
            ObjectNode metadata = ((ObjectNode) object.path("metadata")).put("namespace", namespace);
            ObjectNode labelNode = metadata.putObject("labels");
            if (queue != null) labelNode.put(QUEUE_NAME_LABEL, queue);
            labels.forEach(labelNode::put);
            if (!annotations.isEmpty()) annotations.forEach(metadata.putObject("annotations")::put);
            ObjectNode spec = object.putObject("spec").put("parallelism", parallelism).put("completions", parallelism).put("suspend", true);
            ObjectNode podSpec = spec.putObject("template").putObject("spec").put("restartPolicy", "Never");
            ObjectNode container = podSpec.putArray("containers").addObject().put("name", "main").put("image", image);
            container.putArray("command").add("/agnhost").add("pause");
            ObjectNode resources = container.putObject("resources");
            ObjectNode requestNode = resources.putObject("requests");
            requests.forEach(requestNode::put);
            requests.forEach((resource, quantity) -> {
                if (resource.contains("/")) child(resources, "limits").put(resource, quantity);
            });
            return object;
        }

        @Override
        public String collectionPath() {
            return "/apis/batch/v1/namespaces/" + namespace + "/jobs";
        }
    }
}
