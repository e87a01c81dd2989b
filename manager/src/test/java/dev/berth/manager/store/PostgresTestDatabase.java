package dev.berth.manager.store;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL database the tests use: BERTH_PG_URL, BERTH_PG_USER and BERTH_PG_PASSWORD, by default
 * the berth_test database and berth role that .ci/run creates. Each test class takes its own schema.
 * Unreachable: the test is skipped, or fails when CI=true.
 */
public final class PostgresTestDatabase {
    private PostgresTestDatabase() {}

    public static PostgresConfig config(String schema) {
        return new PostgresConfig(
                env("BERTH_PG_URL", "jdbc:postgresql://127.0.0.1:5432/berth_test"),
                env("BERTH_PG_USER", "berth"),
                env("BERTH_PG_PASSWORD", "berth"),
                schema, 4);
    }

    /** Skips (or under CI=true fails) the calling test when the database cannot be reached; then empties the schema. */
    public static PostgresConfig freshSchema(String schema) {
        PostgresConfig config = config(schema);
        DriverManager.setLoginTimeout(3);
        try (Connection connection = DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
             Statement sql = connection.createStatement()) {
            sql.execute("DROP SCHEMA IF EXISTS " + config.schema() + " CASCADE");
        } catch (SQLException e) {
            String message = "PostgreSQL is not reachable at " + config.jdbcUrl() + " as " + config.user() + ": " + e.getMessage();
            if ("true".equals(System.getenv("CI"))) fail(message + " (CI=true: PostgreSQL is required; .ci/run sets it up)");
            System.out.println("skipping: " + message);
            assumeTrue(false, message);
        }
        return config;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
