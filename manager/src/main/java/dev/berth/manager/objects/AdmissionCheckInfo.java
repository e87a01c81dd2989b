package dev.berth.manager.objects;

/** An AdmissionCheck: its name and the controller that decides it. */
public record AdmissionCheckInfo(String name, String controllerName) {
}
