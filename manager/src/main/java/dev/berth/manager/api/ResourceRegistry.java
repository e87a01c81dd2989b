package dev.berth.manager.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.LinkedHashSet;

/** The kinds the API serves, the versions each is served at, and the hooks of each. Immutable once built. */
public final class ResourceRegistry {
    private final Map<String, Entry> byPlural;
    private final Map<String, Entry> byKind;

    private record Entry(ResourceType type, Set<String> versions, ObjectHooks hooks) {}

    private ResourceRegistry(Map<String, Entry> byPlural, Map<String, Entry> byKind) {
        this.byPlural = Map.copyOf(byPlural);
        this.byKind = Map.copyOf(byKind);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Optional<ResourceType> byPlural(String group, String plural) {
        return Optional.ofNullable(byPlural.get(group + "/" + plural)).map(Entry::type);
    }

    public Optional<ResourceType> byKind(String group, String kind) {
        return Optional.ofNullable(byKind.get(group + "/" + kind)).map(Entry::type);
    }

    /** The kind named by an object's apiVersion and kind, if that version is served. */
    public Optional<ResourceType> byApiVersionAndKind(String apiVersion, String kind) {
        GroupVersion gv = GroupVersion.parse(apiVersion);
        return byKind(gv.group(), kind).filter(type -> serves(type, gv.version()));
    }

    public boolean serves(ResourceType type, String version) {
        Entry entry = byPlural.get(type.resource());
        return entry != null && entry.versions().contains(version);
    }

    /** The storage version first, then the aliases. */
    public List<String> versions(ResourceType type) {
        return List.copyOf(byPlural.get(type.resource()).versions());
    }

    public ObjectHooks hooks(ResourceType type) {
        Entry entry = byPlural.get(type.resource());
        return entry == null ? ObjectHooks.NONE : entry.hooks();
    }

    public List<ResourceType> types() {
        List<ResourceType> types = new ArrayList<>();
        for (Entry entry : byPlural.values()) types.add(entry.type());
        return types;
    }

    /** An apiVersion split into group ("" for core) and version. */
    public record GroupVersion(String group, String version) {
        public static GroupVersion parse(String apiVersion) {
            if (apiVersion == null) return new GroupVersion("", "");
            int slash = apiVersion.indexOf('/');
            return slash < 0 ? new GroupVersion("", apiVersion)
                    : new GroupVersion(apiVersion.substring(0, slash), apiVersion.substring(slash + 1));
        }
    }

    public static final class Builder {
        private final Map<String, Entry> byPlural = new LinkedHashMap<>();
        private final Map<String, Entry> byKind = new LinkedHashMap<>();

        /** Serves a kind at its storage version and at each of alsoServedAt. */
        public Builder add(ResourceType type, ObjectHooks hooks, String... alsoServedAt) {
            Set<String> versions = new LinkedHashSet<>();
            versions.add(type.version());
            versions.addAll(List.of(alsoServedAt));
            Entry entry = new Entry(type, versions, hooks);
            if (byPlural.putIfAbsent(type.resource(), entry) != null) {
                throw new IllegalArgumentException("resource " + type.resource() + " registered twice");
            }
            byKind.put(type.group() + "/" + type.kind(), entry);
            return this;
        }

        public ResourceRegistry build() {
            return new ResourceRegistry(byPlural, byKind);
        }
    }
}
