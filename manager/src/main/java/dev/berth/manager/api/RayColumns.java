package dev.berth.manager.api;

import dev.berth.protocol.RayApi;
import java.util.List;

/**
 * The tables of KubeRay's kinds, with the printer columns of KubeRay's CRDs (v1.7.0): a RayJob's job and
 * deployment status, its cluster and times; a RayCluster's workers, resources and state. The cells read
 * the status Berth mirrors from the worker cluster, so {@code kubectl get rayjobs} on the manager reads
 * as it does on the worker.
 */
final class RayColumns {
    private RayColumns() {}

    static List<TableColumns.Column> of(String kind) {
        if (kind.equals(RayApi.RAY_JOB)) {
            return List.of(name(), text("Job Status", "status.jobStatus", 0), text("Deployment Status", "status.jobDeploymentStatus", 0),
                    text("Ray Cluster Name", "status.rayClusterName", 0), text("Start Time", "status.startTime", 0),
                    text("End Time", "status.endTime", 0), TableColumns.ageColumn());
        }
        return List.of(name(), integer("Desired Workers", "status.desiredWorkerReplicas"),
                integer("Available Workers", "status.availableWorkerReplicas"), text("CPUs", "status.desiredCPU", 0),
                text("Memory", "status.desiredMemory", 0), text("GPUs", "status.desiredGPU", 0), text("TPUs", "status.desiredTPU", 1),
                text("Status", "status.state", 0), TableColumns.ageColumn(), text("Head Pod IP", "status.head.podIP", 1),
                text("Head Service IP", "status.head.serviceIP", 1));
    }

    private static TableColumns.Column name() {
        return new TableColumns.Column("Name", "string", "name", 0, "Name must be unique within a namespace.",
                (o, now) -> TableColumns.text(o, "metadata.name"));
    }

    private static TableColumns.Column text(String name, String path, int priority) {
        return new TableColumns.Column(name, "string", "", priority, "." + path, (o, now) -> TableColumns.text(o, path));
    }

    private static TableColumns.Column integer(String name, String path) {
        return new TableColumns.Column(name, "integer", "", 0, "." + path, (o, now) -> {
            String value = TableColumns.text(o, path);
            return value.matches("-?\\d{1,18}") ? (Object) Long.parseLong(value) : null;
        });
    }
}
