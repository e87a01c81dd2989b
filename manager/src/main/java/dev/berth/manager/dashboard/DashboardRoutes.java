package dev.berth.manager.dashboard;

import io.vertx.ext.web.Router;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Mounts the dashboard: {@code /} and {@code /dashboard} redirect to {@code /dashboard/}, which
 * serves the page; {@code /dashboard/stream} is the live feed; the rest are the page's assets. The
 * page reads everything else through the manager's existing APIs (explain, visibility).
 */
public final class DashboardRoutes {
    public static final String PATH = "/dashboard/";
    public static final String STREAM = PATH + "stream";

    private final DashboardStream stream;
    private final DashboardAssets assets;

    public DashboardRoutes(DashboardStream stream, DashboardAssets assets) {
        this.stream = stream;
        this.assets = assets;
    }

    /**
     * The exact paths of the page, its style and its scripts, which hold no data and which a browser
     * must load before it can send a token; the stream and the APIs the page calls are not among them.
     */
    public static Set<String> publicPaths() {
        Set<String> paths = new LinkedHashSet<>(List.of("/", "/dashboard", PATH));
        DashboardAssets.NAMES.forEach(name -> paths.add(PATH + name));
        return paths;
    }

    public void register(Router router) {
        router.get("/").handler(ctx -> ctx.redirect(PATH));
        router.get(STREAM).handler(stream::handle);
        // Vert.x matches "/dashboard" and "/dashboard/" alike; the page's relative links need the slash.
        router.get("/dashboard").handler(ctx -> {
            if (ctx.request().path().endsWith("/")) assets.serve(ctx, "index.html");
            else ctx.redirect(PATH);
        });
        router.get(PATH + ":asset").handler(ctx -> assets.serve(ctx, ctx.pathParam("asset")));
    }
}
