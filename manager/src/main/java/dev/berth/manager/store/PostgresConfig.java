package dev.berth.manager.store;

import java.util.Objects;

/**
 * Where the PostgreSQL store lives. The schema keeps separate stores (one per test class, say) in one
 * database apart. {@link #toString()} leaves the password out, so the config can be logged.
 */
public record PostgresConfig(String jdbcUrl, String user, String password, String schema, int poolSize) {
    public static final String DEFAULT_SCHEMA = "berth";

    public PostgresConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        password = password == null ? "" : password;
        schema = schema == null || schema.isBlank() ? DEFAULT_SCHEMA : schema;
        if (!schema.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("schema must be a lower-case SQL identifier: " + schema);
        }
        if (poolSize < 1) throw new IllegalArgumentException("poolSize must be at least 1");
    }

    public PostgresConfig(String jdbcUrl, String user, String password) {
        this(jdbcUrl, user, password, DEFAULT_SCHEMA, 4);
    }

    public PostgresConfig withSchema(String otherSchema) {
        return new PostgresConfig(jdbcUrl, user, password, otherSchema, poolSize);
    }

    @Override
    public String toString() {
        return "PostgresConfig[" + jdbcUrl + ", user=" + user + ", schema=" + schema + ", poolSize=" + poolSize + "]";
    }
}
