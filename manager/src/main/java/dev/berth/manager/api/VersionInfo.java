package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Properties;

/**
 * The body of {@code /version}, with every field of kube's version.Info as a string (clients such
 * as Python's VersionApi require them all). Berth speaks the API of Kubernetes 1.32; the git and
 * build fields come from build.properties, filtered by Maven ("unknown" when the build did not
 * record them), and the Go fields say honestly that this is a JVM.
 */
final class VersionInfo {
    static final String MAJOR = "1";
    static final String MINOR = "32";
    private static final String RESOURCE = "/dev/berth/manager/build.properties";

    private VersionInfo() {}

    static ObjectNode body() {
        Properties build = build();
        ObjectNode info = JsonNodeFactory.instance.objectNode();
        info.put("major", MAJOR);
        info.put("minor", MINOR);
        info.put("gitVersion", "v" + MAJOR + "." + MINOR + ".0-berth");
        info.put("gitCommit", value(build, "gitCommit", "unknown"));
        info.put("gitTreeState", value(build, "gitTreeState", "unknown"));
        info.put("buildDate", value(build, "buildDate", "unknown"));
        info.put("goVersion", "n/a (java " + System.getProperty("java.version", "unknown") + ")");
        info.put("compiler", "javac");
        info.put("platform", os() + "/" + arch());
        return info;
    }

    private static Properties build() {
        Properties properties = new Properties();
        try (InputStream in = VersionInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return properties;
    }

    /** A property the build filled in; an empty or unfiltered ({@code ${...}}) one is the fallback. */
    private static String value(Properties build, String key, String fallback) {
        String value = build.getProperty(key, "").trim();
        return value.isEmpty() || value.startsWith("${") ? fallback : value;
    }

    private static String os() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        if (os.startsWith("mac")) return "darwin";
        if (os.startsWith("windows")) return "windows";
        return os.replace(' ', '-');
    }

    /** Go's GOARCH names: amd64, arm64, ... */
    private static String arch() {
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        return switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i686" -> "386";
            default -> arch;
        };
    }
}
