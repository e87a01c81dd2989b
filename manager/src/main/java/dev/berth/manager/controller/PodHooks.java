package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.GatedPod;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.objects.WorkloadFactory;
import dev.berth.manager.store.AlreadyExistsException;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Plain pods under Kueue: a pod with the queue-name label is a workload of one pod; pods sharing a
 * pod-group-name label form one workload once the group's total count of pods exists.
 */
final class PodHooks implements ObjectHooks {
    private final ManagerState state;
    private final StoredPriorities priorities;
    private final ManagedJobs managed;

    PodHooks(ManagerState state, StoredPriorities priorities) {
        this.state = state;
        this.priorities = priorities;
        this.managed = new ManagedJobs(state);
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        boolean managedPod = false;
        if (op == Operation.CREATE) {
            managed.defaultLocalQueue(incoming);
            managedPod = managed.manages(incoming);
            if (managedPod) GatedPod.gate(incoming);
            GatedPod.initialStatus(incoming);
        }
        if (managedPod && groupName(incoming) == null) {
            ObjectNode probe = incoming.deepCopy();
            probe.with("metadata").put("uid", "00000000-0000-0000-0000-000000000000");
            WorkloadDecoder.request(WorkloadFactory.fromSinglePod(probe, priorities), state.jobIntegration.resources());
        } else if (managedPod) {
            WorkloadFactory.checkPodGroupMember(incoming);
        }
        return incoming;
    }

    @Override
    public void stored(StoredObject object) {
        ObjectNode pod = object.object();
        // Kueue's pod reconciler only takes pods its webhook marked managed (and gated) on create.
        if (!managed.manages(pod) || !"true".equals(pod.path("metadata").path("labels").path(Labels.MANAGED).asText())) return;
        String group = groupName(pod);
        ObjectNode workload;
        if (group == null) {
            workload = WorkloadFactory.fromSinglePod(pod, priorities);
        } else {
            List<ObjectNode> members = new ArrayList<>();
            for (StoredObject stored : state.store.list(Resources.PODS.resource(), object.key().namespace())) {
                if (group.equals(groupName(stored.object()))) members.add(stored.object());
            }
            int total = pod.path("metadata").path("annotations").path(Annotations.POD_GROUP_TOTAL_COUNT).asInt(-1);
            if (members.size() != total) return;
            workload = WorkloadFactory.fromPodGroup(group, members, priorities);
        }
        ObjectKey key = new ObjectKey(Resources.WORKLOADS.resource(), object.key().namespace(),
                workload.path("metadata").path("name").asText());
        try {
            StoredObject stored = state.store.create(key, workload);
            state.controller.submit(WorkloadDecoder.request(stored.object(), state.jobIntegration.resources()), true, WorkloadStatus.EMPTY);
            state.reschedule();
        } catch (AlreadyExistsException alreadyThere) {
            // The group's workload exists already.
        }
    }

    /**
     * A pod group's Workload goes with any of its pods, as before. A single pod's Workload names the
     * pod in its ownerReferences and is collected (or orphaned) by the delete itself (api.CascadingDelete).
     */
    @Override
    public void deleted(StoredObject object) {
        String name = groupName(object.object());
        if (name == null) return;
        try {
            state.store.delete(new ObjectKey(Resources.WORKLOADS.resource(), object.key().namespace(), name));
            state.controller.delete(WorkloadKey.of(object.key().namespace(), name));
            state.reschedule();
        } catch (NotFoundException gone) {
            // nothing was derived from this pod
        }
    }

    private static String groupName(ObjectNode pod) {
        String group = pod.path("metadata").path("labels").path(Labels.POD_GROUP_NAME).asText("");
        return group.isEmpty() ? null : group;
    }
}
