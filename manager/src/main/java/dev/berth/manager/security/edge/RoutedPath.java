package dev.berth.manager.security.edge;

import dev.berth.manager.dashboard.DashboardRoutes;
import dev.berth.manager.security.CanonicalPath;
import io.vertx.ext.web.RoutingContext;
import java.util.HashSet;
import java.util.Set;

/**
 * The path the guard decides on, kept on the routing context so that every handler after it answers
 * on the same one ({@link CanonicalPath}), and the few exact paths anyone may fetch without a token:
 * the health probes, the version, the dashboard's page, style and scripts (which hold no data), and
 * the dashboard's sign-in by one-time code.
 * Everything else needs a token: deny by default, compared on the canonical path, case-sensitively
 * as the router matches.
 */
public final class RoutedPath {
    static final String KEY = "berth.routedPath";
    /** Constant answers that kubelet probes and every kubectl call fetch: not counted against an address. */
    private static final Set<String> UNMETERED = Set.of("/healthz", "/readyz", "/livez", "/version");
    private static final Set<String> OPEN = open();

    private RoutedPath() {}

    private static Set<String> open() {
        Set<String> open = new HashSet<>(UNMETERED);
        open.addAll(DashboardRoutes.publicPaths());
        open.add(DashboardSignInRoutes.SIGN_IN); // the one-time code is the credential; refusals count against the address
        return Set.copyOf(open);
    }

    /** Resolves and remembers the canonical path. @throws IllegalArgumentException when the path is not canonical */
    static String resolve(RoutingContext ctx) {
        String path = CanonicalPath.of(ctx.request().path());
        ctx.put(KEY, path);
        return path;
    }

    /** The canonical path the guard decided on (the raw path when no guard ran). */
    public static String of(RoutingContext ctx) {
        String path = ctx.get(KEY);
        return path != null ? path : ctx.request().path();
    }

    static boolean isOpen(String path) {
        return OPEN.contains(path);
    }

    static boolean isUnmetered(String path) {
        return UNMETERED.contains(path);
    }

    /** The exact paths served without a token (tests). */
    public static Set<String> openPaths() {
        return OPEN;
    }
}
