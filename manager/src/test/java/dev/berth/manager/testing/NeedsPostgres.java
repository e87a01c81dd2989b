package dev.berth.manager.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/** The test needs a PostgreSQL server (BERTH_PG_URL, BERTH_PG_USER, BERTH_PG_PASSWORD); run the group alone with {@code -Dgroups=postgres}, or leave it out with {@code -DexcludedGroups=postgres}. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("postgres")
public @interface NeedsPostgres {}
