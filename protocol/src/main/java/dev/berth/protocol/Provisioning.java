package dev.berth.protocol;

import java.util.List;

/**
 * The wire names of cluster-autoscaler's ProvisioningRequest (autoscaling.x-k8s.io/v1) as Kueue's
 * provisioning admission check uses them: group, kind, condition types, and the pod annotations that
 * make a pod consume the provisioned capacity.
 */
public final class Provisioning {
    private Provisioning() {}

    public static final String GROUP = "autoscaling.x-k8s.io";
    public static final String VERSION = "v1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "ProvisioningRequest";
    public static final String PLURAL = "provisioningrequests";
    public static final String POD_TEMPLATE_KIND = "PodTemplate";
    public static final String POD_TEMPLATES = "podtemplates";

    /** Pod annotation: the ProvisioningRequest whose capacity the pod consumes. */
    public static final String CONSUME_ANNOTATION = "autoscaling.x-k8s.io/consume-provisioning-request";
    /** Pod annotation: the provisioning class of that request. */
    public static final String CLASS_ANNOTATION = "autoscaling.x-k8s.io/provisioning-class-name";
    /** Kueue's workload annotation prefix whose entries become the request's parameters. */
    public static final String PARAMETER_ANNOTATION_PREFIX = "provreq.kueue.x-k8s.io/";

    public static final String ACCEPTED = "Accepted";
    public static final String PROVISIONED = "Provisioned";
    public static final String FAILED = "Failed";
    public static final String BOOKING_EXPIRED = "BookingExpired";
    public static final String CAPACITY_REVOKED = "CapacityRevoked";
    public static final List<String> CONDITION_TYPES = List.of(ACCEPTED, PROVISIONED, FAILED, BOOKING_EXPIRED, CAPACITY_REVOKED);

    public static final String CHECK_CAPACITY_CLASS = "check-capacity.autoscaling.x-k8s.io";
    public static final String ATOMIC_SCALE_UP_CLASS = "best-effort-atomic-scale-up.autoscaling.x-k8s.io";

    /** Kueue's prefix of the PodTemplates a request refers to ("ppt-<request>-<podset>"). */
    public static final String POD_TEMPLATE_PREFIX = "ppt";
}
