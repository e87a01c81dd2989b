package dev.berth.manager.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The store's tables, created on start. Idempotent, and safe when several replicas start at once:
 * the DDL runs in one transaction under a transaction-scoped advisory lock.
 */
final class PostgresSchema {
    private static final long DDL_LOCK = 0x6265727468L; // "berth"

    private PostgresSchema() {}

    static void create(Connection connection, String schema) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement sql = connection.createStatement()) {
            sql.execute("SELECT pg_advisory_xact_lock(" + DDL_LOCK + ")");
            sql.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
            sql.execute("CREATE TABLE IF NOT EXISTS " + schema + ".objects ("
                    + " resource text NOT NULL,"
                    + " namespace text NOT NULL,"
                    + " name text NOT NULL,"
                    + " resource_version bigint NOT NULL,"
                    + " json bytea NOT NULL,"
                    + " PRIMARY KEY (resource, namespace, name))");
            // One row: the store revision. Bumping it inside each write serializes writers in commit order,
            // so resourceVersions are gapless and a higher one was always committed later.
            sql.execute("CREATE TABLE IF NOT EXISTS " + schema + ".revision ("
                    + " id int PRIMARY KEY CHECK (id = 1),"
                    + " value bigint NOT NULL)");
            sql.execute("INSERT INTO " + schema + ".revision VALUES (1, 0) ON CONFLICT (id) DO NOTHING");
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
