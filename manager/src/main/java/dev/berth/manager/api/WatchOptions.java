package dev.berth.manager.api;

import dev.berth.manager.objects.FieldCause;
import java.util.ArrayList;
import java.util.List;

/**
 * The query of a WATCH, checked as kube-apiserver checks a watch's ListOptions: sendInitialEvents
 * (the watch-list client-go's informers use) needs resourceVersionMatch=NotOlderThan and bookmarks;
 * resourceVersionMatch is allowed only with it. A bad combination is a 422 Invalid ListOptions.
 */
record WatchOptions(String resourceVersion, String resourceVersionMatch, boolean allowWatchBookmarks, Boolean sendInitialEvents) {

    static WatchOptions of(ApiRequest request) {
        String version = request.param("resourceVersion");
        String match = request.param("resourceVersionMatch");
        String initial = request.param("sendInitialEvents");
        WatchOptions options = new WatchOptions(version == null || version.isEmpty() ? null : version,
                match == null || match.isEmpty() ? null : match, request.flag("allowWatchBookmarks"),
                initial == null || initial.isEmpty() ? null : Boolean.valueOf(initial.equalsIgnoreCase("true")));
        options.validate(request.param("continue"));
        return options;
    }

    /** Whether the watch starts with every current object as ADDED (and, with sendInitialEvents, a closing bookmark). */
    boolean startsWithCurrentState() {
        if (sendInitialEvents != null) return sendInitialEvents;
        return resourceVersion == null || resourceVersion.equals("0");
    }

    /** Whether the watch-list's end of initial events is marked by a bookmark. */
    boolean marksInitialEventsEnd() {
        return Boolean.TRUE.equals(sendInitialEvents);
    }

    private void validate(String continueToken) {
        List<FieldCause> causes = new ArrayList<>();
        if (sendInitialEvents != null) {
            if (!ListOptions.NOT_OLDER_THAN.equals(resourceVersionMatch)) {
                causes.add(ListOptions.forbidden("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
            }
            if (sendInitialEvents && !allowWatchBookmarks) {
                causes.add(new FieldCause("allowWatchBookmarks", "Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true",
                        "FieldValueForbidden"));
            }
        }
        if (resourceVersionMatch != null) {
            if (sendInitialEvents == null) {
                causes.add(ListOptions.forbidden("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
            }
            if (!resourceVersionMatch.equals(ListOptions.NOT_OLDER_THAN)) {
                causes.add(FieldCause.notSupported("resourceVersionMatch", resourceVersionMatch, List.of(ListOptions.NOT_OLDER_THAN)));
            }
            if (continueToken != null && !continueToken.isEmpty()) {
                causes.add(ListOptions.forbidden("resourceVersionMatch is forbidden when continue is provided"));
            }
        }
        if (!causes.isEmpty()) throw ListOptions.invalid(causes);
        if (resourceVersion != null && !resourceVersion.equals("0")) ListOptions.parseResourceVersion(resourceVersion);
    }
}
