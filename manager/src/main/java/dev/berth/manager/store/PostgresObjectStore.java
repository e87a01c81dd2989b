package dev.berth.manager.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link ObjectStore}: every object is a row in PostgreSQL, shared by all manager
 * replicas. Reads go to the database every time (no cache), so any replica reads what the leader
 * committed. A write is one transaction: lock the row, check the expected resourceVersion, take the
 * next revision from the one-row revision table, write, COMMIT; it returns only after the commit.
 */
public final class PostgresObjectStore implements ObjectStore {
    private static final Logger log = LoggerFactory.getLogger(PostgresObjectStore.class);

    private final HikariDataSource pool;
    private final ObjectStamping stamping;
    private final String objects;
    private final String revisionTable;
    private final String schema;
    private final StoreFence fence;
    private final StorageTransformer transformer;

    private PostgresObjectStore(HikariDataSource pool, ObjectStamping stamping, String schema, StoreFence fence,
                                StorageTransformer transformer) {
        this.pool = pool;
        this.transformer = transformer;
        this.stamping = stamping;
        this.schema = schema;
        this.objects = schema + ".objects";
        this.revisionTable = schema + ".revision";
        this.fence = fence;
    }

    /**
     * This store (same pool) with every write checking the fence after it took the revision row lock.
     * Every write, including the one that raises the epoch, bumps that row, so writes are serialized:
     * a raise committed before ours is seen by the check, a later one waits for our commit.
     */
    @Override
    public ObjectStore fenced(StoreFence newFence) {
        return new PostgresObjectStore(pool, stamping, schema, newFence, transformer);
    }

    /** Connects, creates the schema if it is missing, and checks the database answers. */
    public static PostgresObjectStore open(PostgresConfig config, Clock clock) {
        return open(config, clock, StorageTransformer.IDENTITY);
    }

    /** As above, with each row's JSON passed through the transformer on its way in and out (encryption at rest of Secrets). */
    public static PostgresObjectStore open(PostgresConfig config, Clock clock, StorageTransformer transformer) {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(config.jdbcUrl());
        hikari.setUsername(config.user());
        hikari.setPassword(config.password());
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setMinimumIdle(1);
        hikari.setConnectionTimeout(10_000);
        hikari.setPoolName("berth-store");
        HikariDataSource pool = null;
        try {
            pool = new HikariDataSource(hikari);
            try (Connection connection = pool.getConnection()) {
                PostgresSchema.create(connection, config.schema());
            }
        } catch (SQLException | RuntimeException e) {
            if (pool != null) pool.close();
            throw new IllegalStateException("cannot open the PostgreSQL store " + config + ": " + e.getMessage(), e);
        }
        PostgresObjectStore store = new PostgresObjectStore(pool, new ObjectStamping(clock), config.schema(), null, transformer);
        log.atInfo().setMessage("opened object store")
                .addKeyValue("store", config.toString())
                .addKeyValue("revision", store.revision())
                .log();
        return store;
    }

    @Override
    public Optional<StoredObject> get(ObjectKey key) {
        return query(connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT resource_version, json FROM " + objects + " WHERE resource = ? AND namespace = ? AND name = ?")) {
                bindKey(select, key);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(read(key, row.getLong(1), row.getBytes(2))) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<StoredObject> list(String resource, String namespaceOrNull) {
        return query(connection -> {
            String where = namespaceOrNull == null ? "resource = ?" : "resource = ? AND namespace = ?";
            try (PreparedStatement select = connection.prepareStatement("SELECT namespace, name, resource_version, json FROM "
                    + objects + " WHERE " + where + " ORDER BY namespace COLLATE \"C\", name COLLATE \"C\"")) {
                select.setString(1, resource);
                if (namespaceOrNull != null) select.setString(2, namespaceOrNull);
                List<StoredObject> result = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        ObjectKey key = new ObjectKey(resource, row.getString(1), row.getString(2));
                        result.add(read(key, row.getLong(3), row.getBytes(4)));
                    }
                }
                return result;
            }
        });
    }

    @Override
    public StoredObject create(ObjectKey key, ObjectNode object) {
        return transaction(connection -> {
            long next = nextRevision(connection);
            StoredObject stored = StoredObject.owning(key, next, stamping.created(object, next));
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + objects
                    + " (resource, namespace, name, resource_version, json) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                bindKey(insert, key);
                insert.setLong(4, next);
                insert.setBytes(5, transformer.toStorage(key, stored.jsonUnsafe()));
                if (insert.executeUpdate() == 0) throw new AlreadyExistsException(key, key + " already exists");
            }
            return stored;
        });
    }

    @Override
    public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
        return transaction(connection -> {
            StoredObject existing = current(connection, key, expectedResourceVersionOrNull);
            long next = nextRevision(connection);
            return update(connection, StoredObject.owning(key, next, stamping.replaced(existing.readOnlyObject(), object, next)));
        });
    }

    @Override
    public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
        return transaction(connection -> {
            StoredObject existing = current(connection, key, expectedResourceVersionOrNull);
            long next = nextRevision(connection);
            return update(connection, StoredObject.owning(key, next, stamping.statusReplaced(existing.readOnlyObject(), status, next)));
        });
    }

    @Override
    public StoredObject delete(ObjectKey key) {
        return transaction(connection -> {
            StoredObject existing = current(connection, key, null);
            nextRevision(connection);
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM " + objects + " WHERE resource = ? AND namespace = ? AND name = ?")) {
                bindKey(delete, key);
                delete.executeUpdate();
            }
            return existing;
        });
    }

    /** A write is one transaction that returns after its COMMIT, and other connections see a row only once committed. */
    @Override
    public boolean readsShowOnlyDurableWrites() {
        return true;
    }

    @Override
    public long revision() {
        return query(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT value FROM " + revisionTable + " WHERE id = 1");
                 ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0L;
            }
        });
    }

    @Override
    public void close() {
        pool.close();
    }

    /** The row under a lock held until the transaction ends, after the expected-version check. */
    private StoredObject current(Connection connection, ObjectKey key, String expectedResourceVersion) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT resource_version, json FROM " + objects
                + " WHERE resource = ? AND namespace = ? AND name = ? FOR UPDATE")) {
            bindKey(select, key);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) throw new NotFoundException(key, key + " not found");
                StoredObject existing = read(key, row.getLong(1), row.getBytes(2));
                if (expectedResourceVersion != null && !expectedResourceVersion.isEmpty()
                        && !expectedResourceVersion.equals(Long.toString(existing.resourceVersion()))) {
                    throw new ConflictException(key, key + " has resourceVersion " + existing.resourceVersion()
                            + ", not " + expectedResourceVersion);
                }
                return existing;
            }
        }
    }

    private long nextRevision(Connection connection) throws SQLException {
        long next;
        try (PreparedStatement bump = connection.prepareStatement(
                "UPDATE " + revisionTable + " SET value = value + 1 WHERE id = 1 RETURNING value");
             ResultSet row = bump.executeQuery()) {
            row.next();
            next = row.getLong(1);
        }
        if (fence != null) checkFence(connection);
        return next;
    }

    /** Runs under the revision row lock, so no other write (no epoch raise) can commit until this transaction ends. */
    private void checkFence(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT json FROM " + objects + " WHERE resource = ? AND namespace = ? AND name = ?")) {
            bindKey(select, fence.key());
            try (ResultSet row = select.executeQuery()) {
                long stored = row.next() ? StoredObject.fromJson(fence.key(), 0, row.getBytes(1)).object().path(fence.field()).asLong(0) : 0;
                if (stored != fence.value()) {
                    throw new FencedWriteException("write refused: " + fence.key() + " holds " + fence.field() + " " + stored
                            + ", this writer is fenced at " + fence.value());
                }
            }
        }
    }

    private StoredObject update(Connection connection, StoredObject stored) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE " + objects
                + " SET resource_version = ?, json = ? WHERE resource = ? AND namespace = ? AND name = ?")) {
            update.setLong(1, stored.resourceVersion());
            update.setBytes(2, transformer.toStorage(stored.key(), stored.jsonUnsafe()));
            update.setString(3, stored.key().resource());
            update.setString(4, stored.key().namespace());
            update.setString(5, stored.key().name());
            update.executeUpdate();
        }
        return stored;
    }

    private StoredObject read(ObjectKey key, long resourceVersion, byte[] stored) {
        return StoredObject.fromJson(key, resourceVersion, transformer.fromStorage(key, stored));
    }

    private static void bindKey(PreparedStatement statement, ObjectKey key) throws SQLException {
        statement.setString(1, key.resource());
        statement.setString(2, key.namespace());
        statement.setString(3, key.name());
    }

    /** A round trip to the database: a pooled connection that answers within two seconds. */
    @Override
    public java.util.Optional<String> unreachable() {
        try {
            return query(connection -> connection.isValid(2) ? java.util.Optional.<String>empty()
                    : java.util.Optional.of("PostgreSQL did not answer within 2 s"));
        } catch (RuntimeException e) {
            return java.util.Optional.of(e.getMessage());
        }
    }

    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T query(Work<T> work) {
        try (Connection connection = pool.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new StoreUnavailableException("PostgreSQL read failed: " + e.getMessage(), e);
        }
    }

    /** Runs the work in one transaction and commits; any exception rolls it back, so nothing of a failed write is kept. */
    private <T> T transaction(Work<T> work) {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("PostgreSQL write failed: " + e.getMessage(), e);
        }
    }
}
