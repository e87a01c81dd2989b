package dev.berth.manager.dashboard;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard's page, style and scripts: a fixed list of classpath resources under
 * {@code dashboard/}, read once. Any other name is a 404, so no path reaches anything else.
 */
public final class DashboardAssets {
    static final List<String> NAMES = List.of("index.html", "dashboard.css", "app.js", "stream.js", "dom.js",
            "cohorts.js", "pending.js", "explain.js", "clusters.js", "capacity.js", "events.js");

    private final Map<String, Asset> assets = new LinkedHashMap<>();

    private record Asset(String contentType, Buffer body) {
    }

    public DashboardAssets() {
        for (String name : NAMES) assets.put(name, new Asset(contentType(name), Buffer.buffer(read(name))));
    }

    public List<String> names() {
        return NAMES;
    }

    public void serve(RoutingContext ctx, String name) {
        Asset asset = assets.get(name);
        if (asset == null) {
            ctx.response().setStatusCode(404).putHeader("content-type", "text/plain; charset=utf-8").end("not found");
            return;
        }
        ctx.response().putHeader("content-type", asset.contentType())
                .putHeader("cache-control", "no-cache")
                .putHeader("x-content-type-options", "nosniff")
                .putHeader("content-security-policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:")
                .end(asset.body());
    }

    static String contentType(String name) {
        if (name.endsWith(".html")) return "text/html; charset=utf-8";
        if (name.endsWith(".css")) return "text/css; charset=utf-8";
        if (name.endsWith(".js")) return "text/javascript; charset=utf-8";
        throw new IllegalArgumentException("no content type for " + name);
    }

    private static byte[] read(String name) {
        try (InputStream in = DashboardAssets.class.getClassLoader().getResourceAsStream("dashboard/" + name)) {
            if (in == null) throw new IllegalStateException("dashboard asset missing from the classpath: " + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
